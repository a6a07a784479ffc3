// The peers' key meanings, applied to a copy of a results object.
#include "bench/results/compat.hpp"

#include <string>

#include "bench/results/format.hpp"
#include "bench/results/run_metrics.hpp"
#include "bench/results/shape.hpp"

namespace bench::results {
namespace {

using nlohmann::json;

void copy_key(json& run, const std::string& from, const std::string& to) {
  const auto found = run.find(from);
  if (found != run.end()) run[to] = *found;
}

// One run: itl as chunk gaps (what vLLM's and SGLang's itls lists hold), plus vLLM's names.
void apply(json& run, Compat compat) {
  if (!run.is_object()) return;
  for (std::string_view stat : kDistributionStats) {
    const std::string itl = distribution_key(stat, "itl");
    copy_key(run, itl, distribution_key(stat, "itl_per_token"));
    copy_key(run, distribution_key(stat, "icl"), itl);
    if (compat == Compat::vllm) copy_key(run, distribution_key(stat, "e2e_latency"),
                                         distribution_key(stat, "e2el"));
  }
  if (compat == Compat::vllm) {
    copy_key(run, "total_throughput", "total_token_throughput");
    copy_key(run, "goodput", "request_goodput");
  }
  run["json_compat"] = compat == Compat::vllm ? "vllm" : "sglang";
}

}  // namespace

std::optional<Compat> parse_compat(std::string_view name) {
  if (name == "vllm") return Compat::vllm;
  if (name == "sglang") return Compat::sglang;
  return std::nullopt;
}

// A point, and each repeat of it (--repeat): every run object of the file gets the view.
void apply_to_point(json& point, Compat compat) {
  apply(point, compat);
  const auto repeats = point.find(key::repeat_runs);
  if (repeats == point.end() || !repeats->is_array()) return;
  for (json& repeat : *repeats) apply(repeat, compat);
}

json compat_view(const json& results, Compat compat) {
  json view = results;
  // A sweep's points, and a search's probes (kept as points).
  const bool search = view.value(key::kind, json()) == kind_name(Kind::search);
  if ((is_sweep(view) || search) && view[key::points].is_array()) {
    for (json& point : view[key::points]) apply_to_point(point, compat);
    view["json_compat"] = compat == Compat::vllm ? "vllm" : "sglang";
  } else {
    apply_to_point(view, compat);
  }
  return view;
}

}  // namespace bench::results
