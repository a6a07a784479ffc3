#include "module_graph.hpp"

#include <gtest/gtest.h>

namespace {

using bench::architecture::differences;
using bench::architecture::find_cycle;
using bench::architecture::graph_from_links;
using bench::architecture::graph_from_table;
using bench::architecture::ModuleGraph;

constexpr std::string_view kDoc = R"(# Architecture

| module | what it holds |
|---|---|
| `not_this` | a table of another section |

## The module graph

What each module's library links; no cycles.

| module | links |
|---|---|
| `sse`, `util` | the standard library only |
| `images` | `util` (and libjpeg-turbo, libpng) |
| `report` | `sse` (the parser, for `util`'s sake), `images` |
| `app` (five wings) | `report`, `util` |

| not | this table |
|---|---|
| `later` | `table` |

## Next section

| `after` | `heading` |
)";

TEST(ModuleGraphTable, reads_each_row_of_the_first_table_under_its_heading) {
  const auto read = graph_from_table(kDoc);
  EXPECT_TRUE(read.problems.empty());
  const ModuleGraph expected = {{"sse", {}},
                                {"util", {}},
                                {"images", {"util"}},
                                {"report", {"sse", "images"}},
                                {"app", {"report", "util"}}};
  EXPECT_EQ(read.graph, expected);
}

TEST(ModuleGraphTable, names_a_missing_table_a_row_without_module_and_a_repeated_module) {
  EXPECT_EQ(graph_from_table("# Architecture\n\n| `a` | `b` |\n|---|---|\n").problems,
            std::vector<std::string>{"no table of modules under \"## The module graph\""});
  const auto read = graph_from_table(
      "## The module graph\n| module | links |\n|---|---|\n| `a` | `b` |\n| nothing | `b` |\n"
      "| `c`, `a` | `b` |\n");
  EXPECT_EQ(read.problems,
            (std::vector<std::string>{"a row that names no module and its links: | nothing | `b` |",
                                      "`a` has two rows"}));
}

TEST(ModuleGraphLinks, keeps_links_to_modules_and_folds_the_app_wings_into_app) {
  const ModuleGraph graph = graph_from_links(
      "util: \n"
      "engine: bench_metrics;bench_util;CURL::libcurl\n"
      "app_point: bench_cli;bench_util;fmt::fmt;Threads::Threads\n"
      "app_plan: bench_app_server;bench_app_point;bench_cli;bench_metrics\n");
  const ModuleGraph expected = {
      {"util", {}}, {"engine", {"metrics", "util"}}, {"app", {"cli", "util", "metrics"}}};
  EXPECT_EQ(graph, expected);
}

TEST(ModuleGraphDifferences, names_each_link_and_row_one_side_lacks) {
  const ModuleGraph build = {{"util", {}},
                             {"results", {"metrics", "server_metrics", "util"}},
                             {"merge", {"metrics", "results"}},
                             {"record", {"util", "wire"}},
                             {"metrics", {}}};
  const ModuleGraph table = {{"util", {}},
                             {"results", {"metrics"}},
                             {"merge", {"metrics", "report", "results"}},
                             {"metrics", {}},
                             {"gone", {"util"}}};
  EXPECT_EQ(differences(build, table),
            (std::vector<std::string>{
                "`merge`'s row says it links `report`; the build does not",
                "`record` has no row; the build has it linking `util`, `wire`",
                "`results` links `server_metrics`, `util` in the build; its row does not say so",
                "`gone` has a row; the build has no library bench_gone"}));
  EXPECT_TRUE(differences(build, build).empty());
}

TEST(ModuleGraphCycles, finds_a_cycle_and_only_a_cycle) {
  EXPECT_TRUE(find_cycle({{"a", {"b", "c"}}, {"b", {"c"}}, {"c", {}}}).empty());
  EXPECT_EQ(find_cycle({{"a", {"b"}}, {"b", {"c"}}, {"c", {"b"}}}),
            (std::vector<std::string>{"b", "c", "b"}));
}

}  // namespace
