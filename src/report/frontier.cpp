// The efficiency frontier (frontier.hpp): the Pareto set and the terminal table.
#include "bench/report/frontier.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string_view>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "results_view.hpp"
#include "sweep_axis.hpp"

namespace bench::report {
namespace {

using nlohmann::json;
namespace key = results::key;

bool finite(const std::pair<double, double>& p) {
  return std::isfinite(p.first) && std::isfinite(p.second);
}

// `a` dominates `b`: as much of both, and more of one.
bool dominates(const std::pair<double, double>& a, const std::pair<double, double>& b) {
  return a.first >= b.first && a.second >= b.second && (a.first > b.first || a.second > b.second);
}

std::string cell(std::optional<double> value, int decimals) {
  return value && std::isfinite(*value) ? fmt::format("{:.{}f}", *value, decimals)
                                        : std::string("n/a");
}

}  // namespace

std::vector<std::size_t> pareto_front(const std::vector<std::pair<double, double>>& xy) {
  std::vector<std::size_t> front;
  for (std::size_t i = 0; i < xy.size(); ++i) {
    if (!finite(xy[i])) continue;
    bool dominated = false;
    for (std::size_t j = 0; j < xy.size() && !dominated; ++j) {
      dominated = j != i && finite(xy[j]) && dominates(xy[j], xy[i]);
    }
    if (!dominated) front.push_back(i);
  }
  return front;
}

std::vector<FrontierPoint> frontier_points(const json& sweep) {
  std::vector<FrontierPoint> out;
  const json* points = view::array_at(sweep, key::points);
  if (points == nullptr) return out;
  std::vector<std::pair<double, double>> xy;
  for (std::size_t i = 0; i < points->size(); ++i) {
    const json& point = (*points)[i];
    FrontierPoint p;
    p.index = i;
    p.load = view::sweep_value(sweep, point, i);
    p.per_user = view::number(point, key::median_output_throughput_per_user);
    p.per_user_p10 = view::number(point, key::p10_output_throughput_per_user);
    p.output_per_gpu = view::number(point, key::output_throughput_per_gpu);
    p.input_per_gpu = view::number(point, key::input_throughput_per_gpu);
    p.total_per_gpu = view::number(point, key::total_throughput_per_gpu);
    p.output = view::number(point, key::output_throughput);
    p.usd_per_million_output = view::number(point, key::usd_per_million_output_tokens);
    p.joules_per_output_token = view::number(point, key::joules_per_output_token);
    const double nan = std::nan("");
    xy.emplace_back(p.per_user.value_or(nan), p.output.value_or(nan));
    out.push_back(p);
  }
  for (std::size_t i : pareto_front(xy)) out[i].pareto = true;
  return out;
}

std::string render_frontier_table(const json& sweep) {
  const std::vector<FrontierPoint> points = frontier_points(sweep);
  const view::SweepAxis axis = view::sweep_axis(sweep);
  std::string out;
  auto line = std::back_inserter(out);
  out += axis.frontier_title;
  constexpr std::string_view kRow = "{:>1} {:>{}} {:>8} {:>8} {:>9} {:>9} {:>9} {:>8} {:>8}\n";
  const int first_w = std::max<int>(11, static_cast<int>(axis.column.size()));
  fmt::format_to(line, kRow, "", axis.column, first_w, "per user", "per user", "output", "input",
                 "total", "USD / 1M", "J / out");
  fmt::format_to(line, kRow, "", "", first_w, "p50", "p10", "per GPU", "per GPU", "per GPU",
                 "output", "token");
  bool any_gpu = false;
  for (const FrontierPoint& p : points) {
    any_gpu = any_gpu || p.output_per_gpu.has_value();
    fmt::format_to(line, kRow, p.pareto ? "*" : "", axis.label(p.load), first_w,
                   cell(p.per_user, 1), cell(p.per_user_p10, 1), cell(p.output_per_gpu, 1),
                   cell(p.input_per_gpu, 1), cell(p.total_per_gpu, 1),
                   cell(p.usd_per_million_output, 3), cell(p.joules_per_output_token, 3));
  }
  out +=
      "* = Pareto point: no other point has at least as much of both, and more of one.\n"
      "per user p50 / p10: output tok/s per user (1/TPOT).\n"
      "output / input / total per GPU: token throughput of each kind over --gpus\n"
      "(output = generated tokens; total = input + output).";
  out += axis.frontier_note;
  out += any_gpu ? "\n"
                 : "\nPer GPU n/a: give --gpus N (the Pareto points are the same by output "
                   "tok/s,\nwhich is per GPU times the GPUs).\n";
  return out;
}

}  // namespace bench::report
