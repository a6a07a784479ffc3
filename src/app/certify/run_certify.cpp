// `bench certify`: the request log and the truth log read, each side's requests as the join's
// times, joined, and the certificate printed.
#include <cmath>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "bench/app/certify/certify.hpp"
#include "bench/app/grade/twin.hpp"
#include "bench/cli/exit_codes.hpp"
#include "bench/gate/gate.hpp"
#include "bench/metrics/client_error.hpp"
#include "bench/results/peer_file_read.hpp"
#include "bench/results/read_file.hpp"
#include "bench/results/request_log.hpp"
#include "bench/sim/trace_log_read.hpp"
#include "certificate_report.hpp"

namespace bench::app {

namespace {

std::int64_t ms_to_ns(double ms) { return std::llround(ms * 1e6); }

// The client's side: measured, completed, streamed requests with an id and a chunk. The log's
// times count from the request's start, which is the client's start here.
std::vector<metrics::StreamTimes> client_side(const std::vector<results::LoggedRequest>& log) {
  std::vector<metrics::StreamTimes> out;
  for (const results::LoggedRequest& r : log) {
    if (r.warmup || !r.streamed || !r.ok || r.response_id.empty() || r.chunk_arrival_ms.empty()) {
      continue;
    }
    metrics::StreamTimes t{
        r.response_id, 0, {}, ms_to_ns(r.e2e_ms), r.completion_tokens.value_or(0)};
    for (const double ms : r.chunk_arrival_ms) t.chunk_ns.push_back(ms_to_ns(ms));
    out.push_back(std::move(t));
  }
  return out;
}

// The server's side: complete streamed answers, timed from the request's arrival.
std::vector<metrics::StreamTimes> server_side(const std::vector<sim::TraceRecord>& records) {
  std::vector<metrics::StreamTimes> out;
  for (const sim::TraceRecord& r : records) {
    if (!r.stream || r.http_status != 200 || r.outcome != "ok" || r.chunk_ns.empty()) continue;
    out.push_back({r.id, r.arrival_ns, r.chunk_ns, r.end_ns, r.completion_tokens});
  }
  return out;
}

// The certificate's numeric keys: the names --fail-over may use.
std::vector<std::string> numeric_keys(const nlohmann::json& certificate) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : certificate.items()) {
    if (value.is_number() || value.is_null()) keys.push_back(key);
  }
  return keys;
}

// --fail-over on the certificate's keys, as a run's gates are checked on its results: the
// violations on `err`; 4 when one failed, 2 when a gate names no key of it, else 0.
int check_gates(const std::vector<std::string>& specs, const nlohmann::json& certificate,
                std::ostream& err) {
  std::vector<gate::Gate> gates;
  const std::vector<std::string> known = numeric_keys(certificate);
  for (const std::string& spec : specs) {
    auto parsed = gate::parse_gate(gate::GateKind::fail_over, spec, known);
    if (const auto* error = std::get_if<gate::GateError>(&parsed)) {
      err << "bench certify: error: " << error->message << "\n";
      return cli::kExitUsage;
    }
    gates.push_back(std::get<gate::Gate>(parsed));
  }
  const gate::GateOutcome outcome = gate::evaluate(gates, certificate);
  err << gate::render_violations(outcome);
  return outcome.failed() ? gate::kExitGateFailed : cli::kExitOk;
}

// The request log and the truth log the certificate joins: the run's own, given with --truth, or
// its twin's replay (then `twin` holds their directory and what the twin was); nullopt once why
// not is said on `err`.
struct Sources {
  std::string requests_path, truth_path;
  std::optional<TwinReplay> twin;
};

std::optional<Sources> sources(const cli::CertifyOptions& options, std::ostream& err) {
  if (!options.truth_path.empty()) return Sources{options.input_path, options.truth_path, {}};
  auto file = results::read_results_file(options.input_path);
  if (const auto* error = std::get_if<results::FormatError>(&file)) {
    err << "bench certify: error: " << error->message
        << " (give a run's results, or its request log with --truth)\n";
    return std::nullopt;
  }
  const nlohmann::json& run = std::get<results::ResultsFile>(file).results;
  if (std::get<results::ResultsFile>(file).kind != results::Kind::run ||
      run.contains(std::string(results::kPeerFileKey))) {
    err << "bench certify: error: " << options.input_path
        << ": a certificate is of one run of bench's own\n";
    return std::nullopt;
  }
  auto replay = replay_on_twin(run, options.window, options.timeout_s);
  if (const auto* error = std::get_if<std::string>(&replay)) {
    err << "bench certify: error: " << options.input_path << ": " << *error << "\n";
    return std::nullopt;
  }
  TwinReplay& twin = std::get<TwinReplay>(replay);
  return Sources{twin.requests_path, twin.truth_path, std::move(twin)};
}

}  // namespace

int run_certify(const cli::CertifyOptions& options, std::ostream& out, std::ostream& err) {
  const std::optional<Sources> from = sources(options, err);
  if (!from) return cli::kExitUsage;
  auto log = results::read_request_log(from->requests_path);
  if (const auto* error = std::get_if<results::FormatError>(&log)) {
    err << "bench certify: error: the request log: " << error->message << "\n";
    return cli::kExitUsage;
  }
  auto truth = sim::read_trace_log(from->truth_path);
  if (const auto* error = std::get_if<std::string>(&truth)) {
    err << "bench certify: error: the truth log: " << *error << "\n";
    return cli::kExitUsage;
  }
  const auto client = client_side(std::get<std::vector<results::LoggedRequest>>(log));
  const auto& records = std::get<std::vector<sim::TraceRecord>>(truth);
  const auto server = server_side(records);
  Certificate certificate{metrics::client_error(client, server), options.share,
                          static_cast<std::int64_t>(client.size()),
                          static_cast<std::int64_t>(records.size()), from->twin.has_value()};
  if (certificate.error.joined == 0) {
    err << "bench certify: error: no streamed request of " << from->requests_path
        << " is in the truth log " << from->truth_path
        << " (the same run's? its answers need response ids)\n";
    return cli::kExitUsage;
  }
  nlohmann::json json = certificate_json(certificate);
  if (from->twin) json["twin"] = from->twin->words;
  if (options.format == cli::OutputFormat::json) {
    out << json.dump(2) << "\n";
  } else {
    if (from->twin) out << "Measured on " << from->twin->words << ".\n";
    out << certificate_text(certificate);
  }
  return check_gates(options.fail_over, json, err);
}

}  // namespace bench::app
