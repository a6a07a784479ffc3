#include "bench/app/run_benchmark.hpp"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/app/request_driver.hpp"
#include "bench/cli/exit_codes.hpp"
#include "bench/engine/engine.hpp"
#include "bench/engine/fetch.hpp"
#include "bench/metrics/run_summary.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "bench/report/report.hpp"
#include "bench/sim/sim_server.hpp"
#include "bench/util/atomic_file.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/open_file_limit.hpp"
#include "bench/workload/random_prompts.hpp"

namespace bench::app {

namespace {

// Raised for conditions that stop the run before anything is measured (exit code 3).
struct RunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::vector<std::string> request_headers(const cli::RunOptions& options) {
  std::vector<std::string> headers = {"Content-Type: application/json",
                                      "Accept: text/event-stream, application/json"};
  if (!options.api_key.empty()) headers.push_back("Authorization: Bearer " + options.api_key);
  for (const std::string& header : options.headers) headers.push_back(header);
  return headers;
}

engine::EngineOptions engine_options(const cli::RunOptions& options) {
  engine::EngineOptions engine;
  engine.concurrency = options.concurrency;
  engine.connect_timeout_ms = static_cast<std::int64_t>(options.connect_timeout_s * 1000);
  engine.request_timeout_ms = static_cast<std::int64_t>(options.request_timeout_s * 1000);
  engine.ttft_timeout_ms = static_cast<std::int64_t>(options.ttft_timeout_s * 1000);
  engine.stall_timeout_ms = static_cast<std::int64_t>(options.stall_timeout_s * 1000);
  engine.grace_ms = static_cast<std::int64_t>(options.grace_s * 1000);
  engine.insecure = options.insecure;
  engine.cacert_path = options.cacert;
  return engine;
}

bool is_unreachable(metrics::ErrorClass error) {
  using metrics::ErrorClass;
  return error == ErrorClass::connect_refused || error == ErrorClass::dns ||
         error == ErrorClass::tls || error == ErrorClass::connect_timeout;
}

// GET /v1/models and take the first id, as vLLM's and SGLang's benchmarks do by default.
std::string discover_model(const std::string& base_url, const std::vector<std::string>& headers,
                           const engine::EngineOptions& engine) {
  const std::string url = base_url + "/v1/models";
  const engine::FetchResult models = engine::fetch(url, headers, "", engine);
  if (models.end.error != metrics::ErrorClass::none) {
    throw RunError(fmt::format("cannot reach {}: {}", url, models.end.message));
  }
  if (models.http_status != 200) {
    throw RunError(fmt::format("GET {} answered HTTP {}: {}; pass --model", url,
                               models.http_status, protocol::error_message_from_body(models.body)));
  }
  std::optional<std::string> model = protocol::first_model_id(models.body);
  if (!model) throw RunError(fmt::format("GET {} listed no model; pass --model", url));
  return *model;
}

// Sends one short streamed request asking for per-chunk usage (vLLM's continuous_usage_stats).
// Returns whether the server answered it with a clean stream. A server that cannot be reached
// at all ends the run here, before anything is measured.
bool probe_per_chunk_usage(const std::string& url, const std::vector<std::string>& headers,
                           protocol::RequestOptions request, const engine::EngineOptions& engine) {
  request.continuous_usage_stats = true;
  request.max_tokens = 2;
  const engine::FetchResult probe =
      engine::fetch(url, headers, protocol::build_request_body(request, "Hello"), engine);
  if (is_unreachable(probe.end.error)) {
    throw RunError(fmt::format("cannot reach {}: {}", url, probe.end.message));
  }
  if (probe.http_status != 200) return false;
  metrics::RequestRecord record;
  protocol::StreamReader reader;
  reader.begin(&record);
  reader.on_headers(probe.http_status, probe.content_type);
  reader.on_body(probe.body, 0);
  reader.finish(protocol::TransportEnd{probe.end.error, probe.end.message, 0});
  return record.ok();
}

// Runs one phase (warm-up or measured) and returns the index one past its last sent request.
std::size_t run_phase(engine::Engine& engine, const DriverConfig& config,
                      const std::vector<workload::Prompt>& prompts,
                      std::vector<metrics::RequestRecord>& records, std::size_t first,
                      std::size_t last, bool warmup, const std::atomic<bool>& stop) {
  RequestDriver driver(config, prompts, records, first, last, warmup);
  engine.run(driver, &stop);
  return driver.sent_end();
}

}  // namespace

int run_benchmark(const cli::RunOptions& options, const std::atomic<bool>& stop,
                  std::ostream& out, std::ostream& err) {
  // 1. The target: the user's server, or the embedded simulator on a free loopback port.
  std::unique_ptr<sim::SimServer> embedded;
  std::string base_url = options.base_url;
  if (base_url.empty()) {
    try {
      embedded = std::make_unique<sim::SimServer>(options.sim);
    } catch (const std::exception& error) {
      err << "bench: error: cannot start the embedded server: " << error.what() << "\n";
      return cli::kExitRunFailed;
    }
    base_url = embedded->base_url();
    if (!options.quiet) {
      err << fmt::format(
          "bench: no --base-url given: benchmarking the embedded simulated server at {} ({}).\n"
          "bench: its figures describe the simulator, not a real model; pass --base-url to "
          "measure a server.\n",
          base_url, sim::describe(options.sim));
    }
  }

  const std::vector<std::string> headers = request_headers(options);
  const engine::EngineOptions engine_config = engine_options(options);
  raise_open_file_limit(options.concurrency + 64);

  protocol::RequestOptions request;
  request.endpoint =
      options.endpoint == "completions" ? protocol::Endpoint::completions : protocol::Endpoint::chat;
  request.ignore_eos = options.ignore_eos;
  request.temperature = options.temperature;
  if (!options.extra_body.empty()) request.extra_body = nlohmann::json::parse(options.extra_body);
  const std::string url = base_url + std::string(protocol::endpoint_path(request.endpoint));

  // 2. Model and per-chunk usage, before the clock starts.
  bool per_chunk_usage = options.per_chunk_usage == "on";
  try {
    request.model = options.model.empty() ? discover_model(base_url, headers, engine_config)
                                          : options.model;
    if (options.per_chunk_usage == "auto") {
      per_chunk_usage = probe_per_chunk_usage(url, headers, request, engine_config);
    }
  } catch (const RunError& error) {
    err << "bench: error: " << error.what() << "\n";
    return cli::kExitRunFailed;
  }
  request.continuous_usage_stats = per_chunk_usage;
  if (!options.quiet) {
    err << fmt::format("bench: model '{}', endpoint {}, concurrency {}, {} requests ({} warm-up)"
                       ", per-chunk usage {}\n",
                       request.model, url, options.concurrency, options.num_prompts,
                       options.warmup_requests, per_chunk_usage ? "on" : "off");
  }

  // 3. The workload, then the warm-up and measured phases on one engine (warm connections).
  const auto total = static_cast<std::size_t>(options.warmup_requests + options.num_prompts);
  const std::vector<workload::Prompt> prompts = workload::make_random_prompts(
      {static_cast<std::int64_t>(total), options.input_len, options.output_len, options.seed});
  std::vector<metrics::RequestRecord> records(total);
  const std::string started_at = wall_clock_iso8601();

  DriverConfig config;
  config.url = url;
  config.headers = &headers;
  config.request = request;
  config.epoch_ns = now_ns();
  engine::Engine engine(engine_config);
  const auto warmup_end = static_cast<std::size_t>(options.warmup_requests);
  std::size_t sent_end = run_phase(engine, config, prompts, records, 0, warmup_end, true, stop);
  if (!stop.load()) {
    sent_end = run_phase(engine, config, prompts, records, warmup_end, total, false, stop);
  }
  records.resize(sent_end);  // requests never sent (after a stop) are not part of the run
  const bool interrupted = stop.load();

  // 4. Figures and reports.
  const metrics::RunSummary summary = metrics::summarize_run(records);
  report::RunContext context;
  context.base_url = base_url;
  context.embedded_server = embedded != nullptr;
  context.endpoint = options.endpoint;
  context.model = request.model;
  context.concurrency = options.concurrency;
  context.num_prompts = options.num_prompts;
  context.input_len = options.input_len;
  context.output_len = options.output_len;
  context.started_at = started_at;
  context.config = cli::options_to_json(options);
  context.config["base_url"] = base_url;
  context.config["model"] = request.model;
  nlohmann::json results = report::to_json(summary, context);
  results["interrupted"] = interrupted;
  results["per_chunk_usage"] = per_chunk_usage;

  if (options.output_format == cli::OutputFormat::json) {
    out << results.dump(2) << "\n";
  } else {
    out << report::render_text(summary, context);
    if (interrupted) out << "Run INTERRUPTED: figures cover the requests sent before the stop.\n";
  }
  out.flush();

  int exit_code = cli::kExitOk;
  auto write = [&](const std::string& path, const std::string& content) {
    try {
      write_file_atomically(path, content);
    } catch (const std::exception& error) {
      err << "bench: error: " << error.what() << "\n";
      exit_code = cli::kExitRunFailed;
    }
  };
  if (!options.output_file.empty()) write(options.output_file, results.dump(2) + "\n");
  if (!options.save_requests.empty()) {
    std::string lines;
    for (const metrics::RequestRecord& record : records) {
      lines += report::request_to_jsonl(record);
      lines += '\n';
    }
    write(options.save_requests, lines);
  }
  if (exit_code != cli::kExitOk) return exit_code;
  if (interrupted) return cli::kExitInterrupted;
  if (summary.failed > 0) {
    if (!options.quiet) {
      err << fmt::format("bench: {} of {} measured requests failed (exit code {}).\n",
                         summary.failed, summary.sent, cli::kExitRequestsFailed);
    }
    return cli::kExitRequestsFailed;
  }
  return cli::kExitOk;
}

}  // namespace bench::app
