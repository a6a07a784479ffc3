#pragma once
// The module graph twice, read and compared: as the build links it (the lines
// tests/architecture/CMakeLists.txt writes from each module library's LINK_LIBRARIES) and as
// docs/architecture.md's table states it. A module is the <module> of a bench_<module> library;
// the app's five wings (bench_app_point ... bench_app_search) are one module, `app`, as the table
// has them.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace bench::architecture {

/// Each module and the modules its library links directly.
using ModuleGraph = std::map<std::string, std::set<std::string>>;

/// The build's graph from lines "<module>: <library>;<library>...": libraries that are not
/// modules (fmt::fmt, CURL::libcurl) are left out, and so are the wings' links to each other.
ModuleGraph graph_from_links(std::string_view lines);

/// The first table under the heading "## The module graph": each row names its modules in
/// backquotes in the first cell and what they link in the second. Words in parentheses are notes
/// (an external library, why a link is there) and not read; a row whose second cell names no
/// module ("the standard library only") links none. `problems` says what could not be read: no
/// table, a row with no module, a module with two rows.
struct TableRead {
  ModuleGraph graph;
  std::vector<std::string> problems;
};
TableRead graph_from_table(std::string_view markdown);

/// Each way `table` differs from `build`, one sentence each naming the module and the links;
/// empty when they agree.
std::vector<std::string> differences(const ModuleGraph& build, const ModuleGraph& table);

/// A cycle of `graph` as the modules along it, the first repeated at the end; empty if none.
std::vector<std::string> find_cycle(const ModuleGraph& graph);

}  // namespace bench::architecture
