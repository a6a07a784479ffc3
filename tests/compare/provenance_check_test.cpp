// compare's provenance check: one warning line for each item two results were made
// differently in, one line when only one file says what made it, nothing when neither does.
#include "bench/compare/provenance_check.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

using bench::compare::provenance_warnings;
using nlohmann::json;

json run_made_by(const std::string& libcurl, int cpus) {
  return {{"kind", "run"},
          {"provenance",
           {{"bench_version", "0.1.0"},
            {"commit", "0cc2ba1"},
            {"build_type", "RelWithDebInfo"},
            {"libcurl", libcurl},
            {"cpu_model", "AMD EPYC 7B13"},
            {"cpus_online", cpus}}}};
}

TEST(ProvenanceCheck, SaysNothingOfResultsMadeAlike) {
  EXPECT_TRUE(
      provenance_warnings(run_made_by("7.88.1", 2), "a.json", run_made_by("7.88.1", 2), "b.json")
          .empty());
}

TEST(ProvenanceCheck, WarnsOnceForEachItemTheyDifferIn) {
  const std::vector<std::string> warnings =
      provenance_warnings(run_made_by("7.88.1", 2), "a.json", run_made_by("8.5.0", 32), "b.json");
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0],
            "a.json and b.json were made with a different libcurl version (7.88.1 vs 8.5.0): "
            "figures may differ for that reason alone");
  EXPECT_NE(warnings[1].find("different CPUs online (2 vs 32)"), std::string::npos) << warnings[1];
}

TEST(ProvenanceCheck, AnItemOneFileLacksIsUnknown) {
  json older = run_made_by("7.88.1", 2);
  older["provenance"].erase("cpus_online");
  const std::vector<std::string> warnings =
      provenance_warnings(older, "a.json", run_made_by("7.88.1", 2), "b.json");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("(unknown vs 2)"), std::string::npos) << warnings[0];
}

// Files from before the block: between two of them nothing can be said, and against a newer
// one a single line says the older's build and host are unknown.
TEST(ProvenanceCheck, FilesWithoutTheBlockAreUnknownNotDifferent) {
  const json older = {{"kind", "run"}};
  EXPECT_TRUE(provenance_warnings(older, "old.json", older, "old2.json").empty());
  const std::vector<std::string> warnings =
      provenance_warnings(older, "old.json", run_made_by("7.88.1", 2), "new.json");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            "old.json does not record what made it (an older bench): its build "
            "and host are unknown against new.json's");
}

}  // namespace
