#include "module_graph.hpp"

#include <algorithm>
#include <functional>

namespace bench::architecture {

namespace {

constexpr std::string_view kLibraryPrefix = "bench_";
constexpr std::string_view kWingPrefix = "app_";
constexpr std::string_view kTableHeading = "## The module graph";

// The module a library name of the build stands for: the app's wings fold into `app`.
std::string module_of(std::string_view name) {
  if (name.starts_with(kWingPrefix)) return "app";
  return std::string(name);
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (true) {
    const auto at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

// `cell` without what its parentheses hold: notes, not links.
std::string without_notes(std::string_view cell) {
  std::string out;
  int depth = 0;
  for (const char c : cell) {
    if (c == '(') ++depth;
    if (depth == 0) out.push_back(c);
    if (c == ')' && depth > 0) --depth;
  }
  return out;
}

// The words a cell writes in backquotes, its notes left out.
std::vector<std::string> quoted_words(std::string_view cell) {
  const std::string text = without_notes(cell);
  std::vector<std::string> words;
  for (std::size_t open = text.find('`'); open != std::string::npos;) {
    const std::size_t close = text.find('`', open + 1);
    if (close == std::string::npos) break;
    words.push_back(text.substr(open + 1, close - open - 1));
    open = text.find('`', close + 1);
  }
  return words;
}

// The lines of the first table after the heading, before the next heading.
std::vector<std::string_view> table_lines(std::string_view markdown) {
  std::vector<std::string_view> rows;
  bool in_section = false;
  for (const std::string_view raw : split(markdown, '\n')) {
    const std::string_view line = trim(raw);
    if (line.starts_with("#")) {
      if (in_section) break;
      in_section = line == kTableHeading;
      continue;
    }
    if (!in_section) continue;
    if (line.starts_with("|")) {
      rows.push_back(line);
    } else if (!rows.empty()) {
      break;
    }
  }
  return rows;
}

std::string quoted_list(const std::set<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "`" : ", `") + name + "`";
  return out.empty() ? "nothing" : out;
}

}  // namespace

ModuleGraph graph_from_links(std::string_view lines) {
  ModuleGraph graph;
  for (const std::string_view line : split(lines, '\n')) {
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string module = module_of(trim(line.substr(0, colon)));
    auto& links = graph[module];
    for (const std::string_view raw : split(line.substr(colon + 1), ';')) {
      const std::string_view library = trim(raw);
      if (!library.starts_with(kLibraryPrefix)) continue;
      const std::string linked = module_of(library.substr(kLibraryPrefix.size()));
      if (linked != module) links.insert(linked);
    }
  }
  return graph;
}

TableRead graph_from_table(std::string_view markdown) {
  TableRead out;
  const std::vector<std::string_view> lines = table_lines(markdown);
  if (lines.size() < 3) {
    out.problems.push_back(std::string("no table of modules under \"") +
                           std::string(kTableHeading) + "\"");
    return out;
  }
  // lines[0] is the header row, lines[1] the |---| line under it.
  for (std::size_t i = 2; i < lines.size(); ++i) {
    std::string_view row = lines[i];
    row.remove_prefix(1);
    if (row.ends_with('|')) row.remove_suffix(1);
    const std::vector<std::string_view> cells = split(row, '|');
    const std::vector<std::string> modules = quoted_words(cells[0]);
    if (cells.size() < 2 || modules.empty()) {
      out.problems.push_back("a row that names no module and its links: " + std::string(lines[i]));
      continue;
    }
    const std::vector<std::string> links = quoted_words(cells[1]);
    for (const std::string& module : modules) {
      if (out.graph.contains(module)) {
        out.problems.push_back("`" + module + "` has two rows");
        continue;
      }
      out.graph[module] = std::set<std::string>(links.begin(), links.end());
    }
  }
  return out;
}

std::vector<std::string> differences(const ModuleGraph& build, const ModuleGraph& table) {
  std::vector<std::string> out;
  for (const auto& [module, links] : build) {
    const auto row = table.find(module);
    if (row == table.end()) {
      out.push_back("`" + module + "` has no row; the build has it linking " + quoted_list(links));
      continue;
    }
    std::set<std::string> unsaid;
    std::set<std::string> untrue;
    for (const std::string& link : links) {
      if (!row->second.contains(link)) unsaid.insert(link);
    }
    for (const std::string& link : row->second) {
      if (!links.contains(link)) untrue.insert(link);
    }
    if (!unsaid.empty()) {
      out.push_back("`" + module + "` links " + quoted_list(unsaid) +
                    " in the build; its row does not say so");
    }
    if (!untrue.empty()) {
      out.push_back("`" + module + "`'s row says it links " + quoted_list(untrue) +
                    "; the build does not");
    }
  }
  for (const auto& [module, links] : table) {
    if (!build.contains(module)) {
      out.push_back("`" + module + "` has a row; the build has no library bench_" + module);
    }
  }
  return out;
}

std::vector<std::string> find_cycle(const ModuleGraph& graph) {
  enum class Mark { unseen, on_path, done };
  std::map<std::string, Mark> marks;
  std::vector<std::string> path;
  const std::function<bool(const std::string&)> visit = [&](const std::string& module) {
    Mark& mark = marks[module];
    if (mark == Mark::done) return false;
    if (mark == Mark::on_path) {
      path.erase(path.begin(), std::find(path.begin(), path.end(), module));
      path.push_back(module);
      return true;
    }
    mark = Mark::on_path;
    path.push_back(module);
    if (const auto it = graph.find(module); it != graph.end()) {
      for (const std::string& link : it->second) {
        if (visit(link)) return true;
      }
    }
    path.pop_back();
    marks[module] = Mark::done;
    return false;
  };
  for (const auto& [module, links] : graph) {
    if (visit(module)) return path;
  }
  return {};
}

}  // namespace bench::architecture
