#pragma once
// InferenceX's headline for a sweep of a replayed agent trace (AgentX): total tok/s per GPU
// (input + output over the window, cached input counted) against p90 interactivity (1 / p90
// TPOT: AIPerf's per-request ITL, per token), one point per load. An agent trace's input is
// mostly cached, so a total that counts it can rise while decode stays flat: output tok/s per
// GPU and computed (prefilled) input tok/s per GPU stand beside it, each named. Shown beside the
// efficiency frontier (frontier.hpp) only when every point of the sweep replayed an agent trace
// (its "agent_trace" object); other sweeps print and draw nothing more. Read from results
// objects, so it is the same for a run just made and a file.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/report/svg_chart.hpp"

namespace bench::report {

/// One point of the view, as its results object says (nullopt: unknown).
struct InferenceXPoint {
  std::size_t index = 0;                         // in the sweep's "points"
  std::optional<double> load;                    // the sweep variable's value
  std::optional<double> p90_interactivity;       // agent_trace.p90_interactivity, tok/s per user
  std::optional<double> total_per_gpu;           // total_throughput_per_gpu
  std::optional<double> output_per_gpu;          // output_throughput_per_gpu
  std::optional<double> computed_input_per_gpu;  // agent_trace.computed_input_throughput_per_gpu
  std::optional<double> total;                   // total_throughput, the server's
  bool pareto = false;  // on the front of (p90 interactivity, total): the same set as per GPU
};

/// The points of `sweep`, in its order, with `pareto` set; empty unless every point has an
/// "agent_trace" object.
std::vector<InferenceXPoint> inferencex_points(const nlohmann::json& sweep);

/// The terminal table after the frontier's: one row a point, the Pareto points marked, each
/// throughput named by its kind and the interactivity by its ITL. Empty for a sweep that is not
/// of an agent trace.
std::string render_inferencex_table(const nlohmann::json& sweep);

/// The HTML chart: total tok/s per GPU against p90 interactivity, its Pareto points joined,
/// output and computed input per GPU as their own dashed curves against the same x. nullopt for
/// a sweep that is not of an agent trace, or when no point knows its total per GPU (no --gpus).
std::optional<svg::Chart> inferencex_chart(const nlohmann::json& sweep);

}  // namespace bench::report
