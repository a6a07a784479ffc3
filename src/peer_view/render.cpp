#include "bench/peer_view/render.hpp"

#include <fmt/format.h>

#include "bench/results/format.hpp"

namespace bench::peer_view {

namespace {

using nlohmann::json;

std::optional<double> bench_value(const json& run, const std::string& key) {
  if (key.empty()) return std::nullopt;
  return results::number_at(run, key);
}

// Every value says its unit: a latency in ms, a throughput in its kind of token per second.
std::string_view unit_of(const std::string& bench_key) {
  if (bench_key == "output_throughput") return "tok/s (output)";
  if (bench_key == "input_throughput") return "tok/s (input)";
  if (bench_key == "total_throughput") return "tok/s (total = input + output)";
  if (bench_key == "request_throughput") return "req/s";
  return "ms";
}

std::string number(std::optional<double> value) {
  return value ? fmt::format("{:.2f}", *value) : std::string("n/a");
}

void render_view(const PeerView& view, const json& run, std::string& out) {
  const ToolRules& tool = *view.tool;
  out += fmt::format("{} ({}), {} requests:\n", tool.title, tool.source, view.requests);
  out += fmt::format("  {:<34} {:>10}  {:<30} {:>10}  {}\n", "its figure", "value", "unit", "bench",
                     "why they differ");
  const std::string* previous_why = nullptr;
  for (const PeerFigure& figure : view.figures) {
    const std::optional<double> ours = bench_value(run, figure.bench_key);
    const std::string bench = figure.bench_key.empty() ? "none" : number(ours);
    // A reason given on the row above is not written again.
    const bool repeated =
        previous_why != nullptr && !figure.why.empty() && *previous_why == figure.why;
    out += fmt::format("  {:<34} {:>10}  {:<30} {:>10}  {}\n", figure.key, number(figure.value),
                       unit_of(figure.bench_key), bench, repeated ? "(as above)" : figure.why);
    previous_why = &figure.why;
  }
  for (const std::string& note : view.notes) out += fmt::format("  note: {}\n", note);
}

}  // namespace

std::string render_text(std::span<const PeerView> views, const json& run) {
  std::string out =
      "What each tool would have printed for this run: its rules applied to the same requests' "
      "logged times (docs/metrics.md, \"What every other tool would have printed\").\n";
  for (const PeerView& view : views) {
    out += "\n";
    render_view(view, run, out);
  }
  return out;
}

json to_json(std::span<const PeerView> views, const json& run) {
  json tools = json::array();
  for (const PeerView& view : views) {
    json figures = json::array();
    for (const PeerFigure& figure : view.figures) {
      const std::optional<double> ours = bench_value(run, figure.bench_key);
      figures.push_back(
          {{"key", figure.key},
           {"value", figure.value ? json(*figure.value) : json(nullptr)},
           {"unit", unit_of(figure.bench_key)},
           {"bench_key", figure.bench_key.empty() ? json(nullptr) : json(figure.bench_key)},
           {"bench_value", ours ? json(*ours) : json(nullptr)},
           {"why", figure.why}});
    }
    tools.push_back({{"tool", view.tool->id},
                     {"title", view.tool->title},
                     {"source", view.tool->source},
                     {"requests", view.requests},
                     {"figures", figures},
                     {"notes", view.notes}});
  }
  return {{"tools", tools}};
}

}  // namespace bench::peer_view
