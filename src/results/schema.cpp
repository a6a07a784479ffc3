// The results file's JSON Schema (schema.hpp), from the tables the writer writes from.
#include "bench/results/schema.hpp"

#include <string>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "bench/results/latency_figures.hpp"
#include "bench/results/lengths.hpp"
#include "bench/results/run_metrics.hpp"
#include "bench/results/writer.hpp"

namespace bench::results {
namespace {

using nlohmann::json;

// The statistic's words in a distribution key's description.
std::string stat_words(std::string_view stat) {
  return stat == "std" ? "population standard deviation" : std::string(stat);
}

// Each latency distribution's keys, described by its catalogue row.
void add_distributions(json& properties) {
  for (const LatencyFigure& figure : latency_figures()) {
    for (std::string_view stat : kDistributionStats) {
      properties[distribution_key(stat, figure.key)] = {
          {"type", {"number", "null"}},
          {"description", fmt::format("{} of {} ({}): {}", stat_words(stat), figure.label,
                                      figure.key, figure.definition)}};
    }
  }
}

// The other figures, each described by its definition where it has one of its own.
void add_scalar_figures(json& properties) {
  const json definitions = metric_definitions();
  for (const std::string& name : run_metric_names()) {
    if (properties.contains(name)) continue;  // a distribution's key
    json property = {{"type", {"number", "null"}}};
    if (name == key::request_rate) {
      property = {{"anyOf", {{{"type", {"number", "null"}}}, {{"const", "inf"}}}}};
    }
    if (const auto found = definitions.find(name); found != definitions.end()) {
      property["description"] = *found;
    }
    properties[name] = std::move(property);
  }
}

// The length check's figures (lengths.hpp), written beside the run's own.
void add_length_figures(json& properties) {
  for (std::string_view name : kLengthFigureKeys) {
    properties[std::string(name)] = {
        {"type", {"number", "null"}},
        {"description", "the length check (docs/results-format.md, \"JSON results\")"}};
  }
  properties[std::string(key::input_len_unit)] = {
      {"enum", {"tokens", "words"}},
      {"description",
       "the unit of input_len and of every requested length: tokens (counted by "
       "length_tokenizer) or words (why: words_reason); compare refuses the one against the "
       "other"}};
  properties[std::string(key::length_tokenizer)] = {
      {"type", {"string", "null"}},
      {"description", "what counted the tokens; null when lengths are words or drawn token ids"}};
  properties[std::string(key::words_reason)] = {
      {"type", {"string", "null"}},
      {"description", "why lengths are words; null when they are tokens"}};
}

json run_schema() {
  json properties = json::object();
  add_distributions(properties);
  add_scalar_figures(properties);
  add_length_figures(properties);
  properties[std::string(key::repeat_runs)] = {
      {"type", "array"},
      {"description", "--repeat: each repeat's run object; the point's figures are the first's"},
      {"items", {{"$ref", "#/definitions/run"}}}};
  return {{"type", "object"},
          {"description",
           "One run (a single run, or one point of a sweep or search): its figures, a number or "
           "null (unknown, never 0), each defined under \"definitions\" in the file itself."},
          {"properties", std::move(properties)}};
}

}  // namespace

json results_schema() {
  json kinds = json::array();
  for (const Kind kind : {Kind::run, Kind::sweep, Kind::search, Kind::merged}) {
    kinds.push_back(kind_name(kind));
  }
  return {
      {"$schema", "http://json-schema.org/draft-07/schema#"},
      {"$id", fmt::format("urn:bench:results:schema-version:{}", kSchemaVersion)},
      {"title", fmt::format("bench results file, schema_version {}", kSchemaVersion)},
      {"description",
       "Generated from bench's own tables of figures (src/results/schema.cpp); "
       "docs/results-format.md explains the layout and docs/metrics.md each figure."},
      {"type", "object"},
      {"required", {key::schema_version}},
      {"properties",
       {{key::schema_version, {{"const", kSchemaVersion}}},
        {key::kind, {{"enum", kinds}}},
        {key::points, {{"type", "array"}, {"items", {{"$ref", "#/definitions/run"}}}}}}},
      {"allOf", {{{"$ref", "#/definitions/run"}}}},
      {"definitions", {{"run", run_schema()}}},
  };
}

}  // namespace bench::results
