#include "efficiency_lines.hpp"

#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "bench/report/figure_words.hpp"
#include "bench/results/efficiency.hpp"
#include "bench/results/format.hpp"

namespace bench::report {
namespace {

constexpr int kNumberWidth = 10;  // as the throughput block's numbers

std::string number(std::optional<double> value) {
  return value ? fmt::format("{:.2f}", *value) : std::string("n/a");
}

void add_per_user(std::vector<ReportLine>& lines, const results::Efficiency& e,
                  const metrics::RunSummary& s) {
  if (!e.median_output_per_user) {
    const bool streamed_none = s.completed > 0 && s.completed_streamed() == 0;
    lines.push_back({"Output per user (1/TPOT)",
                     streamed_none ? "n/a (no request was streamed: --no-stream)"
                                   : "n/a (no request had the 2 output tokens a TPOT needs)"});
    return;
  }
  lines.push_back(
      {"Output per user (1/TPOT)", fmt::format("{:>{}} tok/s (output) per user, p50",
                                               number(e.median_output_per_user), kNumberWidth)});
  lines.push_back({"  p10 (90% of requests had more)",
                   fmt::format("{:>{}} tok/s (output) per user, p10", number(e.p10_output_per_user),
                               kNumberWidth)});
  const std::optional<double> ttft = metrics::known_stat(s.ttft_ms, &metrics::Distribution::median);
  lines.push_back({"Interactivity (p50)",
                   fmt::format("{:>{}} tok/s (output) per user after a TTFT of {} ms",
                               number(e.median_output_per_user), kNumberWidth, number(ttft))});
}

void add_per_gpu(std::vector<ReportLine>& lines, const results::Efficiency& e,
                 const results::Accelerators& accelerators, bool input_known) {
  if (!accelerators.gpus) {
    lines.push_back({"Per GPU", "n/a (give --gpus N: bench does not guess the server's GPUs)"});
    return;
  }
  lines.push_back({fmt::format("Per GPU ({} GPUs, --gpus)", *accelerators.gpus), ""});
  const std::string_view unknown_input = input_known ? "" : "  [input unknown]";
  lines.push_back(
      {"  output token throughput",
       fmt::format("{:>{}} tok/s (output) per GPU", number(e.output_per_gpu), kNumberWidth)});
  lines.push_back({"  input token throughput",
                   fmt::format("{:>{}} tok/s (input) per GPU{}", number(e.input_per_gpu),
                               kNumberWidth, unknown_input)});
  lines.push_back({"  total token throughput",
                   fmt::format("{:>{}} tok/s (total = input + output) per GPU{}",
                               number(e.total_per_gpu), kNumberWidth, unknown_input)});
}

// Only with a price: a run that gave none has no cost to show.
void add_cost(std::vector<ReportLine>& lines, const results::Efficiency& e,
              const results::Accelerators& accelerators) {
  if (!accelerators.gpu_hour_usd || !accelerators.gpus) return;
  lines.push_back(
      {fmt::format("Cost (USD {} per GPU-hour, {} GPUs)",
                   results::format_number(*accelerators.gpu_hour_usd), *accelerators.gpus),
       ""});
  auto usd = [](std::optional<double> value) {
    return value ? fmt::format("{:>{}.4f}", *value, kNumberWidth)
                 : fmt::format("{:>{}}", "n/a", kNumberWidth);
  };
  lines.push_back({"  per million output tokens",
                   usd(e.usd_per_million_output) + " USD (all GPU time charged to output)"});
  lines.push_back({"  per million input tokens",
                   usd(e.usd_per_million_input) + " USD (all GPU time charged to input)"});
  lines.push_back({"  per million total tokens",
                   usd(e.usd_per_million_total) + " USD (input + output tokens)"});
}

// Only with --server-metrics: without it no counter could have been read.
void add_energy(std::vector<ReportLine>& lines, const results::Efficiency& e,
                const results::RunContext& c) {
  if (!c.server_metrics) return;
  const std::string why = energy_unknown_reason(c);
  if (!e.gpu_energy_joules) {
    lines.push_back({"Energy (GPUs)", fmt::format("n/a ({})", why)});
    return;
  }
  std::string gpus = "?";
  if (c.server_metrics->delta && c.server_metrics->delta->gpu_energy_series) {
    gpus = fmt::format("{:.0f}", *c.server_metrics->delta->gpu_energy_series);
  }
  lines.push_back(
      {"Energy (GPUs)", fmt::format("{:.1f} J over the scraped window ({} GPUs' counters)",
                                    *e.gpu_energy_joules, gpus)});
  auto joules = [&why](std::optional<double> value, std::string_view kind) {
    return value ? fmt::format("{:>{}.4f} J per token ({})", *value, kNumberWidth, kind)
                 : fmt::format("{:>{}} J per token ({}){}", "n/a", kNumberWidth, kind,
                               why.empty() ? "" : "  [" + why + "]");
  };
  lines.push_back({"  per output token", joules(e.joules_per_output_token, "output")});
  lines.push_back(
      {"  per total token", joules(e.joules_per_total_token, "total = input + output")});
}

}  // namespace

std::vector<ReportLine> efficiency_lines(const metrics::RunSummary& summary,
                                         const results::RunContext& context) {
  const results::Efficiency e = results::efficiency(summary, context);
  std::vector<ReportLine> lines;
  add_per_user(lines, e, summary);
  add_per_gpu(lines, e, context.accelerators, summary.input_tokens_known());
  add_cost(lines, e, context.accelerators);
  add_energy(lines, e, context);
  return lines;
}

}  // namespace bench::report
