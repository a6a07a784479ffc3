#pragma once
// The text report's writer and number formats, shared by its sections (text_report.cpp,
// text_token_counts.cpp, text_client.cpp, text_server.cpp, text_multi_turn.cpp). Private to the
// report module.
#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/metrics/multi_turn.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/results/server_latency.hpp"
#include "bench/results/writer.hpp"

namespace bench::report::text {

constexpr std::size_t kWidth = 78;  // rules and the latency table fit an 80-column terminal
constexpr int kLabelWidth = 34;     // "Label:" column of the key/value lines
constexpr int kNumberWidth = 10;    // numbers in the throughput block
constexpr int kRowLabelWidth = 8;   // latency table: "TTFT", "E2E", ...
constexpr int kColumnWidth = 10;    // latency table: one statistic
constexpr std::size_t kMaxSampleChars = 160;

class Writer {
 public:
  // "====== title ======" across the report's width (fmt has no dynamic fill character).
  void rule(std::string_view title, char fill) {
    const std::string label = title.empty() ? std::string() : fmt::format(" {} ", title);
    const std::size_t pad = kWidth > label.size() ? kWidth - label.size() : 0;
    text_.append(pad / 2, fill);
    text_ += label;
    text_.append(pad - pad / 2, fill);
    text_ += '\n';
  }
  void field(std::string_view label, std::string_view value) {
    fmt::format_to(out(), "{:<{}}{}\n", fmt::format("{}:", label), kLabelWidth, value);
  }
  void text(std::string_view line) { fmt::format_to(out(), "{}\n", line); }
  std::string take() { return std::move(text_); }

 private:
  std::back_insert_iterator<std::string> out() { return std::back_inserter(text_); }
  std::string text_;
};

// Plain doubles only: a NaN or infinity from an empty run prints as 0.
std::string fixed2(double value);
// Means of lengths: "256" when whole, else one decimal ("312.4").
std::string length(double value);
// A mean length that may be unknown (a mean of no values): "n/a", never 0.
std::string length(std::optional<double> value);
// A statistic of `d` to 2 decimals; "n/a" when `d` holds no values, never a 0.00 that reads
// like a measurement.
std::string stat2(const metrics::Distribution& d, double metrics::Distribution::*field);
// A server's error message on one line: control characters become spaces, long ones are cut.
std::string one_line(std::string_view message);

// Where the output and input token counts came from ("from server usage", ...), the words
// every report that shows a token count puts beside it (text_token_counts.cpp).
std::string output_source(const metrics::RunSummary& s);
std::string input_source(const metrics::RunSummary& s);

// The sections kept in files of their own.
void write_token_counts(Writer& w, const metrics::RunSummary& s, const results::RunContext& c);
void write_client(Writer& w, const metrics::RunSummary& s, const results::ClientCheck& check);
// What made the results (results/provenance.hpp), on one line; none for a file without it.
void write_provenance(Writer& w, const nlohmann::json& provenance);
// --multi-turn: the figures by turn, by context length and by session.
void write_multi_turn(Writer& w, const metrics::MultiTurnSummary& summary);
// A replayed agent trace: the cache ceiling beside what the server served (under "Prompt
// cache"), and its section (validity, trees, subagents, requests by agent, InferenceX's point).
void write_cache_ceiling(Writer& w, const metrics::AgentTreeSummary& agents);
void write_agent_trace(Writer& w, const metrics::RunSummary& s, const results::RunContext& c);
// --server-metrics: the server's counts, gauges and latencies held against bench's, with the
// findings. `sharing_intended`: the workload shares prefixes on purpose
// (results/server_findings.hpp).
void write_server(Writer& w, const metrics::RunSummary& s,
                  const results::ServerMetricsWindow& window, bool sharing_intended);
// Part of the Server section: "p99 TTFT (server): 0.1-0.25 s, bench 0.182 s" lines ("p99 queue
// time (server): 0-0.3 s" without a figure of bench's), the mean queue time, then one finding
// per figure of bench's outside the server's range.
void write_server_latency(Writer& w, const std::vector<results::LatencyRange>& ranges,
                          std::optional<double> mean_queue_s);

}  // namespace bench::report::text
