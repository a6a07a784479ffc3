#pragma once
// The catalogue of a run's latency distributions: one row per distribution, read by everything
// that writes, defines, reads, renders, exports or compares one (as protocol/endpoint.hpp is for
// endpoints). A new distribution is one row here plus the RunSummary field where it is measured;
// docs/architecture.md ("Adding a figure") shows the diff.
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "bench/metrics/figures.hpp"
#include "bench/metrics/run_summary.hpp"

namespace bench::results {

/// The statistics of every latency distribution, in the order they are written.
inline constexpr std::array<std::string_view, 7> kDistributionStats = {
    "mean", "median", "std", "p90", "p95", "p99", "max"};

/// The Distribution field of each statistic of kDistributionStats, in its order.
inline constexpr std::array<double metrics::Distribution::*, 7> kDistributionStatFields = {
    &metrics::Distribution::mean, &metrics::Distribution::median, &metrics::Distribution::std,
    &metrics::Distribution::p90,  &metrics::Distribution::p95,    &metrics::Distribution::p99,
    &metrics::Distribution::max};

/// "{stat}_{name}_ms", the SGLang/vLLM key layout: distribution_key("p99", "ttft") is
/// "p99_ttft_ms".
std::string distribution_key(std::string_view stat, std::string_view name);

/// How a peer tool's figure relates to bench's.
enum class Agreement {
  none,     // the tool has no such figure
  same,     // the same definition on the same bytes
  differs,  // a figure of that name whose definition differs (`note` says how)
};

/// One distribution's name in a peer tool's results file.
struct PeerName {
  Agreement agreement = Agreement::none;
  // vLLM and SGLang: the infix of {stat}_{infix}_ms; AIPerf: the metric tag of its JSON export.
  std::string_view name = {};
  std::string_view note = {};  // for `differs`: how its definition differs from bench's
};

struct LatencyFigure {
  std::string_view key;      // the infix of its keys: "ttft" in median_ttft_ms
  std::string_view label;    // in tables: "TTFT"
  std::string_view caption;  // one line beside the label in the HTML report
  // The "definitions" object's line for it (docs/metrics.md has the prose).
  std::string_view definition;
  metrics::Distribution metrics::RunSummary::*values;  // where its values are measured
  // A run knows it only when this holds (TTFA: some request reasoned); else its keys are null,
  // never 0. nullptr: known whenever it holds values.
  bool (*known)(const metrics::RunSummary&) = nullptr;
  // The kind of figure it is, which an endpoint may not produce; none: every run has it.
  std::optional<metrics::Figure> kind = std::nullopt;
  // A figure some runs lack (TTFA, TTFB): reports leave its row out rather than show "-".
  bool row_only_when_measured = false;
  // Timed from a streamed answer's chunks (TTFT, ITL...): a request sent with "stream": false
  // has none, so it is the streamed requests' only, and a run that streamed none has none
  // (reports say so in one line; its keys are null).
  bool needs_stream = false;
  bool in_text_report = true;  // the text report's latency table has a row for it
  // bench compare shows its median and p99 under this name; empty: compare leaves it out.
  std::string_view compare_label = {};
  PeerName vllm = {}, sglang = {}, aiperf = {};
  // GuideLLM's benchmark report (src/guidellm/benchmark/schemas/metrics.py): the key of its
  // distribution; bench neither reads nor writes its files (peer_view/ recomputes its figures).
  PeerName guidellm = {};
  // Its name in llm-d's Benchmark Report (results/llmd_report.cpp); empty: none there.
  std::string_view llmd_name = {};
  bool llmd_per_token = false;  // llm-d's unit for it is ms/token, not ms
};

/// Every latency distribution of a run, in the order reports list them.
std::span<const LatencyFigure> latency_figures();

/// The row whose key is `key`; nullptr when none is.
const LatencyFigure* latency_figure(std::string_view key);

/// The row a peer tool names `name` (the infix of its {stat}_{name}_ms), `tool` one of
/// &LatencyFigure::vllm or ::sglang: the one of the same definition where one is (vLLM's "itl"
/// is bench's icl), else the one that differs (vLLM's "ttft"); nullptr when the tool has none.
const LatencyFigure* peer_figure(PeerName LatencyFigure::*tool, std::string_view name);

/// Whether `figure` is known for the run `summary` summarises (its keys then carry numbers).
bool is_known(const LatencyFigure& figure, const metrics::RunSummary& summary);

}  // namespace bench::results
