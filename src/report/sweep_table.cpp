// The text report of a sweep: one row per point, output tok/s before input and total, latency
// percentiles, errors. Rendered from the points' JSON objects.
#include <cmath>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "bench/report/report.hpp"
#include "bench/results/format.hpp"
#include "bench/results/run_metrics.hpp"
#include "results_view.hpp"

namespace bench::report {

namespace {

using nlohmann::json;

double number(const json& run, const char* key) {
  const auto found = run.find(key);
  if (found == run.end() || !found->is_number()) return 0;
  const double value = found->get<double>();
  return std::isfinite(value) ? value : 0;
}

// A figure to `decimals` places; "n/a" when unknown (missing, null, or lacking input counts).
std::string cell(const json& run, std::string_view key, int decimals) {
  const std::optional<double> value = results::known_metric(run, key);
  if (!value || !std::isfinite(*value)) return "n/a";
  return fmt::format("{:.{}f}", *value, decimals);
}

std::string point_label(const json& run, bool by_rate) {
  if (!by_rate) return fmt::format("{}", static_cast<std::int64_t>(number(run, "max_concurrency")));
  const auto rate = run.find("request_rate");
  if (rate != run.end() && rate->is_string()) return rate->get<std::string>();
  return fmt::format("{:g}", number(run, "request_rate"));
}

// The cached share in percent, one decimal; "n/a" when not disclosed (null or missing).
std::string cached_percent(const json& run) {
  const std::optional<double> share = results::known_metric(run, results::key::cached_input_share);
  return share ? fmt::format("{:.1f}", *share * 100) : std::string("n/a");
}

// "WARNING (concurrency 4): ..." for each warning a point's results carry.
std::string point_warnings(const json& sweep, bool by_rate) {
  std::string out;
  for (const json& run : sweep.value("points", json::array())) {
    const auto warnings = run.find(results::key::warnings);
    if (warnings == run.end() || !warnings->is_array()) continue;
    for (const json& warning : *warnings) {
      if (!warning.is_string()) continue;
      out += fmt::format("WARNING ({} {}): {}\n", by_rate ? "rate" : "concurrency",
                         point_label(run, by_rate), warning.get<std::string>());
    }
  }
  return out;
}

}  // namespace

std::string render_sweep_table(const json& sweep) {
  const bool by_rate = view::swept_by_rate(sweep);
  std::string out;
  auto line = std::back_inserter(out);
  constexpr std::string_view kRow =
      "{:>11} {:>8} {:>11} {:>11} {:>7} {:>11} {:>9} {:>9} {:>8} {:>8} {:>8} {:>7}\n";
  fmt::format_to(line, kRow, by_rate ? "rate (r/s)" : "concurrency", "req/s", "output", "input",
                 "cached", "total", "TTFT p50", "TTFT p99", "ITL p50", "ITL p99", "TPOT p50",
                 "errors");
  fmt::format_to(line, kRow, "", "", "tok/s", "tok/s", "%", "tok/s", "ms", "ms", "ms", "ms", "ms",
                 "");
  for (const json& run : sweep.value("points", json::array())) {
    const auto failed = static_cast<std::int64_t>(number(run, "failed"));
    const auto sent = static_cast<std::int64_t>(number(run, "sent"));
    const std::string errors =
        failed == 0 ? "0"
                    : fmt::format("{} ({:.0f}%)", failed, sent > 0 ? 100.0 * failed / sent : 100.0);
    fmt::format_to(line, kRow, point_label(run, by_rate), cell(run, "request_throughput", 2),
                   cell(run, "output_throughput", 1), cell(run, "input_throughput", 1),
                   cached_percent(run), cell(run, "total_throughput", 1),
                   cell(run, "median_ttft_ms", 2), cell(run, "p99_ttft_ms", 2),
                   cell(run, "median_itl_ms", 2), cell(run, "p99_itl_ms", 2),
                   cell(run, "median_tpot_ms", 2), errors);
  }
  out += "output / input / total: token throughput of each kind (output = generated tokens).\n";
  out +=
      "cached: % of input tokens served from the server's prefix cache; n/a when the server\n"
      "did not disclose it (vLLM needs --enable-prompt-tokens-details).\n";
  out += point_warnings(sweep, by_rate);
  return out;
}

}  // namespace bench::report
