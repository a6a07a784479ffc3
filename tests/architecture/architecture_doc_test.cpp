// docs/architecture.md's module graph is the build's: every module library's direct links to
// other modules (src/<module>/CMakeLists.txt), one row each, and no cycle among them. A link
// added or dropped in a CMakeLists.txt fails here, naming the row to change, until the table
// says it.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "module_graph.hpp"

namespace {

using namespace bench::architecture;

std::string whole_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ModuleGraph build_graph() { return graph_from_links(whole_file(BENCH_MODULE_LINKS_FILE)); }

TEST(ArchitectureDoc, module_graph_table_states_every_link_the_build_declares) {
  const ModuleGraph build = build_graph();
  ASSERT_TRUE(build.contains("util") && build.contains("app")) << BENCH_MODULE_LINKS_FILE;
  const TableRead table = graph_from_table(whole_file(BENCH_ARCHITECTURE_DOC));
  for (const std::string& problem : table.problems) {
    ADD_FAILURE() << BENCH_ARCHITECTURE_DOC << ": " << problem;
  }
  for (const std::string& difference : differences(build, table.graph)) {
    ADD_FAILURE() << BENCH_ARCHITECTURE_DOC << ", the module graph: " << difference;
  }
}

TEST(ArchitectureDoc, build_links_no_cycle_of_modules) {
  std::string cycle;
  for (const std::string& module : find_cycle(build_graph())) cycle += " -> " + module;
  EXPECT_TRUE(cycle.empty()) << "the modules link in a cycle:" << cycle;
}

}  // namespace
