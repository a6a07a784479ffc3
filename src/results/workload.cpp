#include "bench/results/workload.hpp"

namespace bench::results {

nlohmann::json workload_to_json(const WorkloadStamp& stamp) {
  return {{key::fingerprint, stamp.fingerprint},
          {key::generator_version, stamp.generator_version},
          {key::seed, stamp.seed}};
}

std::optional<std::string> workload_fingerprint(const nlohmann::json& results) {
  if (!results.is_object()) return std::nullopt;
  const auto workload = results.find(key::workload);
  if (workload == results.end() || !workload->is_object()) return std::nullopt;
  const auto fingerprint = workload->find(key::fingerprint);
  if (fingerprint == workload->end() || !fingerprint->is_string()) return std::nullopt;
  return fingerprint->get<std::string>();
}

}  // namespace bench::results
