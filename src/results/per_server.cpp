#include "bench/results/per_server.hpp"

#include "bench/metrics/error_class.hpp"
#include "bench/results/format.hpp"
#include "bench/results/run_metrics.hpp"
#include "bench/results/shard_state.hpp"

namespace bench::results {

namespace {

using nlohmann::json;

void put_latencies(json& out, const metrics::RunSummary& s) {
  const metrics::Distribution* distributions[] = {&s.ttft_ms, &s.tpot_ms, &s.itl_ms, &s.e2e_ms};
  static_assert(std::size(distributions) == kServerDistributions.size());
  for (std::size_t i = 0; i < kServerDistributions.size(); ++i) {
    const metrics::Distribution& d = *distributions[i];
    const double values[] = {d.mean, d.median, d.p99};
    for (std::size_t j = 0; j < kServerDistributionStats.size(); ++j) {
      out[distribution_key(kServerDistributionStats[j], kServerDistributions[i])] =
          d.count > 0 ? known_or_null(values[j]) : json(nullptr);
    }
  }
}

json server_to_json(const ServerFigures& server, double duration_s) {
  const metrics::RunSummary& s = server.summary;
  json out = {{key::server_url, server.url},
              {key::server_weight, server.weight},
              {"sent", s.sent},
              {"completed", s.completed},
              {"failed", s.failed},
              {"cancelled", s.cancelled}};
  json errors = json::object();
  for (const auto& [error, summary] : s.errors) {
    if (summary.count > 0) errors[std::string(metrics::error_class_name(error))] = summary.count;
  }
  out["errors"] = std::move(errors);
  const bool input_known = s.input_tokens_known();
  const auto input = static_cast<double>(s.total_input_tokens);
  const auto output = static_cast<double>(s.total_output_tokens);
  out["total_input_tokens"] = input_known ? json(s.total_input_tokens) : json(nullptr);
  out["total_output_tokens"] = s.total_output_tokens;
  // The run's window, not the server's own: the servers' figures add up to the run's.
  const auto rate = [duration_s](double amount) {
    return duration_s > 0 ? finite_or_zero(amount / duration_s) : 0.0;
  };
  out["request_throughput"] = rate(static_cast<double>(s.completed));
  out["output_throughput"] = rate(output);
  out["input_throughput"] = input_known ? json(rate(input)) : json(nullptr);
  out["total_throughput"] = input_known ? json(rate(input + output)) : json(nullptr);
  put_latencies(out, s);
  if (server.state) out[key::shard_state] = accumulator_to_json(*server.state);
  return out;
}

}  // namespace

json per_server_to_json(const std::vector<ServerFigures>& servers, double duration_s) {
  json out = json::array();
  for (const ServerFigures& server : servers) out.push_back(server_to_json(server, duration_s));
  return out;
}

}  // namespace bench::results
