// Telling a run from a sweep, and refusing what is not a results file, old files included.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "bench/results/shape.hpp"

namespace {

using bench::results::classify;
using bench::results::FormatError;
using bench::results::is_sweep;
using bench::results::Kind;
using nlohmann::json;

std::string refusal(const json& results) {
  const auto kind = classify(results, "x.json");
  const auto* error = std::get_if<FormatError>(&kind);
  return error == nullptr ? "" : error->message;
}

TEST(IsSweep, FollowsKindElseAPointsArray) {
  EXPECT_TRUE(is_sweep(json{{"kind", "sweep"}}));
  EXPECT_FALSE(is_sweep(json{{"kind", "run"}, {"points", json::array()}}));
  EXPECT_TRUE(is_sweep(json{{"points", json::array({json::object()})}}));  // before "kind"
  EXPECT_FALSE(is_sweep(json{{"output_throughput", 1}}));
  EXPECT_FALSE(is_sweep(json::array()));
}

TEST(Classify, ReadsRunsAndSweepsWithOrWithoutKind) {
  EXPECT_EQ(std::get<Kind>(classify(json{{"kind", "run"}}, "x")), Kind::run);
  EXPECT_EQ(std::get<Kind>(classify(json{{"output_throughput", 1}}, "x")), Kind::run);
  const json sweep = {{"points", json::array({json{{"output_throughput", 1}}})}};
  EXPECT_EQ(std::get<Kind>(classify(sweep, "x")), Kind::sweep);
  json search = sweep;
  search["kind"] = "search";
  EXPECT_EQ(std::get<Kind>(classify(search, "x")), Kind::search);
}

TEST(Classify, RefusesAnyOtherJsonWithOneLineNamingTheFile) {
  EXPECT_EQ(refusal(json{{"a", 1}}),
            "x.json: not a bench results object (neither output_throughput nor points)");
  EXPECT_EQ(refusal(json::array()), "x.json: not a bench results object (a JSON object)");
  EXPECT_EQ(refusal(json{{"kind", "sweep"}}), "x.json: a sweep without points");
  EXPECT_EQ(refusal(json{{"kind", "comparison"}}),
            "x.json: \"kind\": \"comparison\" is neither a run, a sweep nor a search");
  EXPECT_EQ(refusal(json{{"kind", "search"}}), "x.json: a search without points");
  EXPECT_EQ(refusal(json{{"kind", "run"}, {"schema_version", 2}}),
            "x.json: schema_version 2 is newer than this bench reads (1)");
}

TEST(Classify, RefusesTheReservedKindUntilBenchReadsIt) {
  EXPECT_NE(refusal(json{{"kind", "merged"}}), "");
}

}  // namespace
