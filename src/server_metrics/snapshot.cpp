#include "bench/server_metrics/snapshot.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <unordered_map>

#include "line_reader.hpp"
#include "name_maps.hpp"

namespace bench::server_metrics {
namespace {

using detail::NameMap;
using detail::Names;

using SampleIndex = std::unordered_map<std::string_view, std::vector<const Sample*>>;

SampleIndex index_samples(const Exposition& exposition) {
  SampleIndex index;
  for (const Family& family : exposition.families) {
    for (const Sample& sample : family.samples) index[sample.name].push_back(&sample);
  }
  return index;
}

const std::vector<const Sample*>* samples_named(const SampleIndex& index, const std::string& name) {
  const auto found = index.find(name);
  return found == index.end() ? nullptr : &found->second;
}

double sum_of(const std::vector<const Sample*>& samples) {
  double total = 0;
  for (const Sample* sample : samples) total += sample->value;
  return total;
}

double max_of(const std::vector<const Sample*>& samples) {
  double largest = samples.front()->value;
  for (const Sample* sample : samples) largest = std::max(largest, sample->value);
  return largest;
}

enum class Combine { sum, max };

std::optional<double> read_gauge(const SampleIndex& index, const Names& names, Combine combine) {
  for (std::string_view name : names) {
    if (name.empty()) continue;
    if (const auto* samples = samples_named(index, std::string(name))) {
      return combine == Combine::sum ? sum_of(*samples) : max_of(*samples);
    }
  }
  return std::nullopt;
}

// A counter as written with or without `_total`, or as a histogram's `_sum`.
std::optional<double> read_counter(const SampleIndex& index, const Names& names) {
  for (std::string_view name : names) {
    if (name.empty()) continue;
    for (const char* suffix : {"", "_total", "_sum"}) {
      if (const auto* samples = samples_named(index, std::string(name) + suffix)) {
        return sum_of(*samples);
      }
    }
  }
  return std::nullopt;
}

// All series of one histogram merged: bucket counts added per upper bound.
std::optional<Histogram> read_histogram(const SampleIndex& index, const Names& names) {
  for (std::string_view name : names) {
    if (name.empty()) continue;
    const auto* buckets = samples_named(index, std::string(name) + "_bucket");
    if (buckets == nullptr) continue;
    std::map<double, double> count_by_bound;
    for (const Sample* bucket : *buckets) {
      const std::string* le = bucket->label("le");
      const auto bound = le == nullptr ? std::nullopt : detail::parse_float(*le);
      if (!bound || std::isnan(*bound)) continue;  // the parser refuses these in a histogram
      count_by_bound[*bound] += bucket->value;
    }
    Histogram histogram;
    for (const auto& [bound, count] : count_by_bound) histogram.buckets.push_back({bound, count});
    if (const auto* count = samples_named(index, std::string(name) + "_count")) {
      histogram.count = sum_of(*count);
    } else if (!histogram.buckets.empty()) {
      histogram.count = histogram.buckets.back().count;
    }
    if (const auto* sum = samples_named(index, std::string(name) + "_sum")) {
      histogram.sum = sum_of(*sum);
    }
    return histogram;
  }
  return std::nullopt;
}

// The GPUs' energy counter and power gauge, in the exporters' names and units. DCGM exporter
// (NVIDIA/dcgm-exporter, etc/default-counters.csv): DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION, counter,
// "Total energy consumption since boot (in mJ)"; DCGM_FI_DEV_POWER_USAGE, gauge, "Power draw
// (in W)". AMD's device metrics exporter (ROCm/device-metrics-exporter,
// docs/configuration/metricslist.md): gpu_energy_consumed in uJ; gpu_power_usage (or, on older
// releases, gpu_package_power) in W. One series per GPU (label `gpu`), summed.
struct EnergyName {
  std::string_view name;
  double joules_per_unit;
};
constexpr EnergyName kEnergyNames[] = {{"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", 1e-3},
                                       {"gpu_energy_consumed", 1e-6}};
constexpr std::string_view kPowerNames[] = {"DCGM_FI_DEV_POWER_USAGE", "gpu_power_usage",
                                            "gpu_package_power"};

void read_gpu_energy(const SampleIndex& index, Snapshot& snapshot) {
  for (const EnergyName& energy : kEnergyNames) {
    const auto* samples = samples_named(index, std::string(energy.name));
    if (samples == nullptr) continue;
    snapshot.gpu_energy_joules = sum_of(*samples) * energy.joules_per_unit;
    snapshot.gpu_energy_series = static_cast<double>(samples->size());
    break;
  }
  for (std::string_view name : kPowerNames) {
    if (const auto* samples = samples_named(index, std::string(name))) {
      snapshot.gpu_power_watts = sum_of(*samples);
      break;
    }
  }
}

const NameMap* map_of(ServerFamily family) {
  for (const NameMap& map : detail::name_maps()) {
    if (map.family == family) return &map;
  }
  return nullptr;
}

}  // namespace

std::string_view to_string(ServerFamily family) {
  switch (family) {
    case ServerFamily::vllm: return "vllm";
    case ServerFamily::sglang: return "sglang";
    case ServerFamily::llamacpp: return "llama.cpp";
    case ServerFamily::tgi: return "tgi";
    case ServerFamily::trtllm: return "trt-llm";
    case ServerFamily::unknown: return "unknown";
  }
  return "unknown";
}

ServerFamily detect_family(const Exposition& exposition) {
  ServerFamily best = ServerFamily::unknown;
  std::size_t best_count = 0;
  for (const NameMap& map : detail::name_maps()) {
    std::size_t count = 0;
    for (const Family& family : exposition.families) {
      if (family.name.compare(0, map.prefix.size(), map.prefix) == 0) {
        count += family.samples.size();
      }
    }
    if (count > best_count) {
      best = map.family;
      best_count = count;
    }
  }
  return best;
}

Snapshot read_snapshot(const Exposition& exposition) {
  Snapshot snapshot;
  snapshot.family = detect_family(exposition);
  const SampleIndex index = index_samples(exposition);
  read_gpu_energy(index, snapshot);
  const NameMap* map = map_of(snapshot.family);
  if (map == nullptr) return snapshot;
  snapshot.requests_running = read_gauge(index, map->requests_running, Combine::sum);
  snapshot.requests_waiting = read_gauge(index, map->requests_waiting, Combine::sum);
  snapshot.kv_cache_usage_ratio = read_gauge(index, map->kv_cache_usage_ratio, Combine::max);
  snapshot.prefix_cache_hit_ratio = read_gauge(index, map->prefix_cache_hit_ratio, Combine::max);
  snapshot.prompt_tokens = read_counter(index, map->prompt_tokens);
  snapshot.generation_tokens = read_counter(index, map->generation_tokens);
  snapshot.prefix_cache_hit_tokens = read_counter(index, map->prefix_cache_hit_tokens);
  snapshot.prefix_cache_query_tokens = read_counter(index, map->prefix_cache_query_tokens);
  snapshot.preemptions = read_counter(index, map->preemptions);
  snapshot.requests_succeeded = read_counter(index, map->requests_succeeded);
  snapshot.ttft_seconds = read_histogram(index, map->ttft_seconds);
  snapshot.e2e_seconds = read_histogram(index, map->e2e_seconds);
  snapshot.itl_seconds = read_histogram(index, map->itl_seconds);
  snapshot.tpot_seconds = read_histogram(index, map->tpot_seconds);
  snapshot.queue_time_seconds = read_histogram(index, map->queue_time_seconds);
  snapshot.spec_draft_tokens = read_counter(index, map->spec_draft_tokens);
  snapshot.spec_accepted_tokens = read_counter(index, map->spec_accepted_tokens);
  snapshot.spec_accept_length = read_gauge(index, map->spec_accept_length, Combine::max);
  snapshot.spec_accept_rate = read_gauge(index, map->spec_accept_rate, Combine::max);
  return snapshot;
}

}  // namespace bench::server_metrics
