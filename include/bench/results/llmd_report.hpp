#pragma once
// `bench export --format llm-d-report`: a results file as llm-d's Benchmark Report, the format
// llm-d-benchmark's harnesses write so runs of different load generators compare side by side.
// The schema is llm-d-benchmark's v0.2.1 (llmdbenchmark/analysis/benchmark_report/
// br_v0_2_1_json_schema.json; a copy, with its source and commit, in tests/data/llm-d/).
// A report describes one point: a run gives one, a sweep or search one per point. Output, input
// and total token rates stay apart as the schema defines them (output_token_rate,
// input_token_rate, total_token_rate = input + output); a figure bench did not measure or does
// not know is left out, as the schema allows, never written as 0. docs/export.md has the mapping.
#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "bench/results/read_file.hpp"
#include "bench/results/shape.hpp"

namespace bench::results {

/// The Benchmark Report version written ("version" of every report).
inline constexpr std::string_view kLlmdReportVersion = "0.2.1";

/// The name the reports give bench as their load generator (scenario.load.standardized.tool).
/// v0.2's "tool" is free text; v0.1's fixed list of harnesses (guidellm, inference-perf, ...)
/// no longer applies, so bench names itself rather than pose as one of them.
inline constexpr std::string_view kLlmdToolName = "bench";

/// One run object (a run, or one point of a sweep, in bench's native keys) as a Benchmark
/// Report. `experiment_id` becomes run.eid, shared by the reports of one results file; `stage`
/// is the point's index in its sweep (0 for a run), the schema's workload stage.
nlohmann::json llmd_report(const nlohmann::json& run, std::string_view experiment_id,
                           int stage = 0);

/// What `bench export --format llm-d-report` writes for a results file named `name`: a run's
/// report; a sweep's or a search's reports, one per point in order, as a JSON array, or with
/// `point` (1-based) that point's report alone. A --json-compat view is read back to bench's
/// keys first (read_results). A FormatError naming `name` when the JSON is not a results file
/// bench reads, or `point` names no point of it.
std::variant<nlohmann::json, FormatError> llmd_export(const nlohmann::json& results,
                                                      std::string_view name,
                                                      std::optional<std::int64_t> point);

/// The same for a file already read (read_results_file: by bench's definitions, its kind known).
std::variant<nlohmann::json, FormatError> llmd_export(const ResultsFile& file,
                                                      std::string_view name,
                                                      std::optional<std::int64_t> point);

}  // namespace bench::results
