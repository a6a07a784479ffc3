// One run's "Efficiency" card in the HTML report: output tok/s per user (1/TPOT), token
// throughput per GPU of each kind, the cost of a million tokens of each kind and the GPUs'
// energy per token (results/efficiency.hpp wrote them). A figure the file does not know is
// "n/a" with what it needs; cost and energy rows appear only when the run could have them.
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "bench/results/run_metrics.hpp"
#include "html_parts.hpp"
#include "results_view.hpp"

namespace bench::report::html {
namespace {

namespace key = results::key;

struct Row {
  std::string_view label;
  std::string_view key;
  int decimals;
  std::string_view unit;  // always naming the kind of token
};

std::string row(const json& run, const Row& r, std::string_view unknown) {
  const std::optional<double> value = view::number(run, r.key);
  return fmt::format(
      "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td><td class=\"unit\">{}</td>"
      "<td class=\"src\">{}</td></tr>",
      r.label, value ? view::fixed(value, r.decimals) : std::string("n/a"), r.unit,
      value ? std::string(r.key) : esc(unknown));
}

bool config_has(const json& run, std::string_view name) {
  const json* config = view::object_at(run, key::config);
  return config != nullptr && view::number(*config, name).has_value();
}

}  // namespace

std::string efficiency_section(const json& run, std::string_view id_prefix) {
  // A file from before these figures says nothing of them: no card rather than a card of n/a.
  if (!run.contains(key::median_output_throughput_per_user)) return "";
  std::string out = fmt::format(
      "<section class=\"card\" id=\"{}efficiency\"><h2>Efficiency</h2><table><thead><tr>"
      "<th scope=\"col\">figure</th><th scope=\"col\" class=\"num\">value</th>"
      "<th scope=\"col\">unit</th><th scope=\"col\">key</th></tr></thead><tbody>",
      esc(id_prefix));
  const std::string_view no_tpot = results::streamed_none(run)
                                       ? "no request was streamed (--no-stream)"
                                       : "no request had the 2 output tokens a TPOT needs";
  out += row(run,
             {"Output per user, p50", key::median_output_throughput_per_user, 1,
              "output tok/s per user (1/TPOT)"},
             no_tpot);
  out += row(run,
             {"Output per user, p10", key::p10_output_throughput_per_user, 1,
              "output tok/s per user (1/TPOT)"},
             no_tpot);
  const std::string_view no_gpus = config_has(run, key::gpus)
                                       ? "unknown: an input count is unknown"
                                       : "needs --gpus N (bench does not guess them)";
  out += row(run, {"Output per GPU", key::output_throughput_per_gpu, 1, "output tok/s per GPU"},
             no_gpus);
  out +=
      row(run, {"Input per GPU", key::input_throughput_per_gpu, 1, "input tok/s per GPU"}, no_gpus);
  out += row(
      run,
      {"Total per GPU", key::total_throughput_per_gpu, 1, "total tok/s per GPU (input + output)"},
      no_gpus);
  if (config_has(run, key::gpu_hour_price)) {
    constexpr std::string_view kNoRate = "no tokens of this kind, or their count is unknown";
    out += row(run,
               {"Cost per million output tokens", key::usd_per_million_output_tokens, 4,
                "USD (all GPU time charged to output)"},
               kNoRate);
    out += row(run,
               {"Cost per million input tokens", key::usd_per_million_input_tokens, 4,
                "USD (all GPU time charged to input)"},
               kNoRate);
    out += row(run,
               {"Cost per million total tokens", key::usd_per_million_total_tokens, 4,
                "USD (input + output tokens)"},
               kNoRate);
  }
  if (view::object_at(run, "server_metrics") != nullptr) {
    constexpr std::string_view kNoCounter =
        "no GPU energy counter scraped (DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION), or warm-up in "
        "the window";
    out += row(run, {"GPU energy", key::gpu_energy_joules, 1, "J over the scraped window"},
               kNoCounter);
    out +=
        row(run, {"Energy per output token", key::joules_per_output_token, 4, "J per output token"},
            kNoCounter);
    out += row(
        run,
        {"Energy per total token", key::joules_per_total_token, 4, "J per token (input + output)"},
        kNoCounter);
  }
  out += "</tbody></table></section>";
  return out;
}

}  // namespace bench::report::html
