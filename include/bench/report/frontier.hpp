#pragma once
// The efficiency frontier of a sweep or search: output tok/s per GPU (y) against output tok/s
// per user (x, 1/TPOT's median) across its points, and which points are on the Pareto front
// (no other point has at least as much of both and more of one). Input and total per GPU stand
// beside output, each named by its kind: the frontier is never drawn from one blended
// "throughput". Read from results objects, so it is the same for a run just made and a file.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/report/svg_chart.hpp"

namespace bench::report {

/// The indices of the Pareto-optimal pairs of `xy`, both coordinates higher-is-better, in
/// ascending order. A pair is left out when another has x' >= x and y' >= y with one of them
/// greater; equal pairs are both kept. Pairs with a non-finite coordinate are never optimal.
std::vector<std::size_t> pareto_front(const std::vector<std::pair<double, double>>& xy);

/// One point of a sweep on the frontier, as its results object says (nullopt: unknown).
struct FrontierPoint {
  std::size_t index = 0;                 // in the sweep's "points"
  std::optional<double> load;            // the sweep variable's value (inf: no limit; share 0..1)
  std::optional<double> per_user;        // median_output_throughput_per_user, output tok/s
  std::optional<double> per_user_p10;    // p10_output_throughput_per_user
  std::optional<double> output_per_gpu;  // output_throughput_per_gpu
  std::optional<double> input_per_gpu;   // input_throughput_per_gpu
  std::optional<double> total_per_gpu;   // total_throughput_per_gpu
  std::optional<double> output;          // output_throughput, the server's
  std::optional<double> usd_per_million_output;
  std::optional<double> joules_per_output_token;
  bool pareto = false;  // on the front of (per_user, output): the same set as per GPU
};

/// Every point of `sweep` (a sweep or search results object), in its order, with `pareto` set.
/// The front is taken on output tok/s, which orders the points as output tok/s per GPU does
/// (one GPU count for all), so it is known even without --gpus.
std::vector<FrontierPoint> frontier_points(const nlohmann::json& sweep);

/// The terminal table printed after a sweep: one row a point, the Pareto points marked, each
/// throughput column named by its kind. Multi-line, ends with a newline.
std::string render_frontier_table(const nlohmann::json& sweep);

/// The HTML report's frontier chart: output tok/s per GPU against output tok/s per user, its
/// Pareto points joined as the front and the others as dots, input and total per GPU as their
/// own dashed curves, and the limits of gates and search SLOs on these figures as lines. Every
/// series' name says its kind. nullopt when no point knows its output tok/s per GPU (no --gpus).
std::optional<svg::Chart> frontier_chart(const nlohmann::json& sweep);

}  // namespace bench::report
