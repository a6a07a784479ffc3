#pragma once
// The SLOs a search judged its probes by ("search": {"slos": ["p99_ttft_ms<=500", ...]}),
// drawn as horizontal lines on the sweep charts that plot their figure, so a reader sees where
// each probe stood against them.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/report/svg_chart.hpp"

namespace bench::report::html {

struct SloLine {
  std::string metric;  // a results key: "p99_ttft_ms", "output_throughput"
  double limit = 0;
  std::string text;  // as the search wrote it: "p99_ttft_ms<=500"
};

/// The SLOs of a search's results that name a figure (error_rate and good_request_share are
/// not on any chart); empty for a run or a plain sweep.
std::vector<SloLine> search_slo_lines(const nlohmann::json& results);

/// The SLO as a dashed line at its limit from x_lo to x_hi. `note` follows its name in the
/// legend (e.g. what the SLO was judged on when the chart plots something else).
svg::Series slo_series(const SloLine& slo, double x_lo, double x_hi, std::string_view note = "");

}  // namespace bench::report::html
