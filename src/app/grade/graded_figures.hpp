#pragma once
// The figures a grade compares: TTFT, ICL (vLLM's and SGLang's "ITL"), TPOT and E2E, each's mean,
// median and p99, by bench's results keys. Read from a client's results, and made from the truth
// log by the same definitions (docs/metrics.md) on what the server really sent.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "bench/sim/trace_log.hpp"

namespace bench::app {

/// Every key a grade compares, in the order it shows them: "mean_ttft_ms", ...
std::span<const std::string> graded_keys();

using Figures = std::map<std::string, std::optional<double>>;

/// The graded keys of a results object (bench's keys: a peer's file read through the figure
/// catalogue's peer columns); nullopt where it has no number.
Figures figures_of_results(const nlohmann::json& results);

/// What the server sent, as those figures: over `records`, the last `count` complete streamed
/// answers to end (the client's measured requests are its last; its warm-up ended first).
/// TTFT = first text chunk handed to the socket - arrival; ICL the gaps between text chunks;
/// E2E = last byte - arrival; TPOT = (E2E - TTFT) / (tokens - 1).
struct TruthFigures {
  Figures figures;
  std::int64_t served = 0;    // complete streamed answers in the log
  std::int64_t compared = 0;  // of them, those the figures hold
};
TruthFigures truth_figures(std::span<const sim::TraceRecord> records, std::int64_t count);

}  // namespace bench::app
