// The shipped JSON Schema of results files (docs/results.schema.json) is the one generated from
// the writer's tables (results_schema()): a figure added to them changes the generated schema,
// and this test fails until the shipped copy is regenerated. To regenerate it:
//   BENCH_WRITE_RESULTS_SCHEMA=1 build/tests/results/results_test --gtest_filter='ResultsSchema.*'
// check_results_schema.py validates files against the shipped copy.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bench/results/format.hpp"
#include "bench/results/latency_figures.hpp"
#include "bench/results/run_metrics.hpp"
#include "bench/results/schema.hpp"

namespace {

using nlohmann::json;

const std::string kShippedSchema =
    std::string(BENCH_TEST_DATA_DIR) + "/../../docs/results.schema.json";

TEST(ResultsSchema, ShippedCopyIsTheGeneratedOne) {
  const json generated = bench::results::results_schema();
  const std::string text = generated.dump(2) + "\n";
  const char* write = std::getenv("BENCH_WRITE_RESULTS_SCHEMA");
  if (write != nullptr && std::string_view(write) == "1") {
    std::ofstream(kShippedSchema) << text;
  }
  std::ifstream in(kShippedSchema);
  ASSERT_TRUE(in) << kShippedSchema << " is missing";
  std::stringstream shipped;
  shipped << in.rdbuf();
  EXPECT_EQ(shipped.str(), text)
      << "docs/results.schema.json is not results_schema()'s: regenerate it (this file's header)";
}

TEST(ResultsSchema, ListsEveryFigureTypedAndDescribed) {
  const json schema = bench::results::results_schema();
  const json& properties = schema["definitions"]["run"]["properties"];
  for (const std::string& name : bench::results::run_metric_names()) {
    ASSERT_TRUE(properties.contains(name)) << name;
    const json& property = properties[name];
    EXPECT_TRUE(property.contains("type") || property.contains("anyOf")) << name;
  }
  for (const bench::results::LatencyFigure& figure : bench::results::latency_figures()) {
    for (std::string_view stat : bench::results::kDistributionStats) {
      const std::string key = bench::results::distribution_key(stat, figure.key);
      ASSERT_TRUE(properties.contains(key)) << key;
      EXPECT_NE(properties[key]["description"].get<std::string>().find(figure.definition),
                std::string::npos)
          << key << " is not described by its catalogue row's definition";
    }
  }
  EXPECT_EQ(schema["properties"]["schema_version"]["const"], bench::results::kSchemaVersion);
}

}  // namespace
