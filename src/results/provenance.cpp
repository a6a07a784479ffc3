#include "bench/results/provenance.hpp"

#include <algorithm>

namespace bench::results {

using nlohmann::json;

json provenance_to_json(const Provenance& provenance) {
  return {{"bench_version", provenance.bench_version},
          {"commit", provenance.commit},
          {"build_type", provenance.build_type},
          {"libcurl", provenance.libcurl},
          {"cpu_model", provenance.cpu_model},
          {"cpus_online", provenance.cpus_online ? json(*provenance.cpus_online) : json(nullptr)}};
}

const std::vector<ProvenanceItem>& provenance_items() {
  static const std::vector<ProvenanceItem> items = {
      {"bench_version", "bench version"}, {"commit", "bench commit"},
      {"build_type", "build type"},       {"libcurl", "libcurl version"},
      {"cpu_model", "CPU model"},         {"cpus_online", "CPUs online"},
  };
  return items;
}

json merge_provenance(const std::vector<const json*>& runs) {
  std::vector<const json*> blocks;
  for (const json* run : runs) {
    const auto found = run->find(key::provenance);
    if (found != run->end() && found->is_object()) blocks.push_back(&*found);
  }
  if (blocks.empty()) return nullptr;
  json merged = json::object();
  json differ = json::array();
  for (const ProvenanceItem& item : provenance_items()) {
    const std::string name(item.key);
    json values = json::array();
    for (const json* block : blocks) {
      const json value = block->value(name, json());
      if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
    }
    // A shard from an older bench, without the block, leaves the item unknown, not agreed.
    if (blocks.size() < runs.size() &&
        std::find(values.begin(), values.end(), json()) == values.end()) {
      values.push_back(nullptr);
    }
    if (values.size() == 1) {
      merged[name] = values.front();
    } else {
      merged[name] = values;
      differ.push_back(name);
    }
  }
  merged[key::shards_differ] = differ;
  return merged;
}

}  // namespace bench::results
