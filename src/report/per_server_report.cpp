// The text report's per-server section (--base-url repeated): one row per server from the run
// object's "per_server" (results/per_server.hpp), so a run and a merge of shards print the same.
#include <string>

#include <fmt/format.h>

#include "bench/report/report.hpp"
#include "bench/results/format.hpp"
#include "bench/results/per_server.hpp"

namespace bench::report {

namespace {

using nlohmann::json;

// A figure as the table shows it: one decimal, or "n/a" when unknown (null).
std::string server_figure(const json& server, std::string_view key) {
  const std::optional<double> value = results::number_at(server, key);
  return value ? fmt::format("{:.1f}", *value) : std::string("n/a");
}

std::string error_counts(const json& errors) {
  std::string text;
  for (const auto& [name, count] : errors.items()) {
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", name, count.dump());
  }
  return text;
}

}  // namespace

std::string render_per_server(const json& run) {
  const auto servers = run.find(results::key::per_server);
  if (servers == run.end() || !servers->is_array() || servers->empty()) return "";
  std::string out = fmt::format(
      "\nPer server (spread by request index, or session; tok/s over the run's duration, so they "
      "add up; "
      "latencies in ms)\n"
      "{:<28} {:>3} {:>6} {:>6} {:>6} {:>12} {:>11} {:>8} {:>8} {:>8} {:>8}\n",
      "Server", "Wt", "Sent", "OK", "Failed", "Output tok/s", "Input tok/s", "TTFT p50", "TTFT p99",
      "TPOT p50", "E2E p99");
  for (const json& server : *servers) {
    out += fmt::format(
        "{:<28} {:>3} {:>6} {:>6} {:>6} {:>12} {:>11} {:>8} {:>8} {:>8} {:>8}\n",
        server.value(std::string(results::key::server_url), std::string()),
        server.value(std::string(results::key::server_weight), 1), server.value("sent", 0),
        server.value("completed", 0), server.value("failed", 0),
        server_figure(server, "output_throughput"), server_figure(server, "input_throughput"),
        server_figure(server, "median_ttft_ms"), server_figure(server, "p99_ttft_ms"),
        server_figure(server, "median_tpot_ms"), server_figure(server, "p99_e2e_latency_ms"));
    const std::string errors = error_counts(server.value("errors", json::object()));
    if (!errors.empty()) out += fmt::format("  errors: {}\n", errors);
  }
  return out;
}

}  // namespace bench::report
