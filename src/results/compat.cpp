// The peers' key meanings, applied to a copy of a results object.
#include "bench/results/compat.hpp"

#include <string>

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

json compat_view(const json& results, Compat compat) {
  json view = results;
  if (is_sweep(view) && view[key::points].is_array()) {
    for (json& point : view[key::points]) apply(point, compat);
    view["json_compat"] = compat == Compat::vllm ? "vllm" : "sglang";
  } else {
    apply(view, compat);
  }
  return view;
}

}  // namespace bench::results
