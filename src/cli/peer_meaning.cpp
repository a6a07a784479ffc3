// vLLM's and SGLang's flags and defaults given their meaning in bench's options, once the
// command line's dialect is known. The facts (each peer's source): vLLM
// vllm/benchmarks/serve.py (add_cli_args, main_async) and datasets/datasets.py
// (RandomDataset.get_sampling_params, PrefixRepetitionRandomDataset, CustomDataset); SGLang
// python/sglang/benchmark/serving.py (the argument defaults, sample_random_requests,
// sample_generated_shared_prefix_requests, the request payloads).
#include <cmath>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "bench/cli/dialect.hpp"
#include "bench/cli/values.hpp"
#include "peer_reading.hpp"

namespace bench::cli {

namespace {

using workload::DatasetKind;

// The address the peers send to without --base-url: vLLM 127.0.0.1:8000; SGLang the port of
// its backend (30000 for its own, 8000 for vLLM's, 23333 for LMDeploy's).
int default_port(const PeerReading& r) {
  if (!r.sglang()) return 8000;
  if (r.raw.peer.backend == "vllm") return 8000;
  if (r.raw.peer.backend == "lmdeploy") return 23333;
  return 30000;
}

void read_target(PeerReading& r) {
  const RawPeerFlags& peer = r.raw.peer;
  if (!r.run.base_urls.empty()) {
    if (!peer.host.empty() || peer.port) {
      r.note("--host, --port: not read beside --base-url (as the peers)");
    }
    return;
  }
  const std::string host = peer.host.empty() ? "127.0.0.1" : peer.host;
  const bool ipv6 = host.find(':') != std::string::npos && !host.starts_with("[");
  const std::string url = fmt::format("http://{}:{}", ipv6 ? "[" + host + "]" : host,
                                      peer.port.value_or(default_port(r)));
  r.run.base_urls = {url};
  if (peer.host.empty() && !peer.port) {
    r.note(fmt::format(
        "the server: {} default, {} (no --base-url, --host or --port; bench's own default is its "
        "embedded simulated server)",
        r.peer(), url));
  }
}

protocol::Endpoint backend_endpoint(const std::string& backend) {
  for (const PeerBackend& row : peer_backends()) {
    if (row.name == backend) return row.endpoint;
  }
  std::string names;
  for (const PeerBackend& row : peer_backends()) {
    names += (names.empty() ? "" : ", ") + std::string(row.name);
  }
  throw UsageError(fmt::format(
      "--backend {}: not an API bench speaks; it takes {} (chat, completions and responses)",
      backend, names));
}

void read_endpoint(PeerReading& r) {
  const RawPeerFlags& peer = r.raw.peer;
  const bool kind_given = given(r.app, "--endpoint") && peer.endpoint_path.empty();
  if (peer.backend.empty()) {
    if (kind_given || !peer.endpoint_path.empty()) return;  // bench's, or vLLM's path
    // vLLM's default backend is openai (/v1/completions); SGLang's is its own (completions here).
    r.run.endpoint = protocol::Endpoint::completions;
    r.note(fmt::format("the endpoint: {} default, /v1/completions (bench's own default is chat)",
                       r.peer()));
    return;
  }
  const protocol::Endpoint endpoint = backend_endpoint(peer.backend);
  if ((kind_given || !peer.endpoint_path.empty()) && endpoint != r.run.endpoint) {
    throw UsageError(fmt::format("--backend {} sends to {}, not --endpoint {}", peer.backend,
                                 protocol::endpoint_path(endpoint),
                                 peer.endpoint_path.empty()
                                     ? std::string(protocol::endpoint_name(r.run.endpoint))
                                     : peer.endpoint_path));
  }
  r.run.endpoint = endpoint;
  if (peer.backend == "sglang" || peer.backend == "sglang-native") {
    r.note(
        fmt::format("--backend {}: SGLang's native /generate is not an API bench speaks; it sends "
                    "/v1/completions, which SGLang serves too",
                    peer.backend));
  }
}

// SGLang sends temperature 0 and ignore_eos unless --disable-ignore-eos; vLLM sends ignore_eos
// with its random dataset (serve.py: "ignore_eos" forced for random with OpenAI backends).
void read_sampling(PeerReading& r) {
  const RawPeerFlags& peer = r.raw.peer;
  refuse_both(r, "--extra-request-body", !peer.extra_request_body.empty(), "--extra-body");
  if (!peer.extra_request_body.empty()) r.run.extra_body = peer.extra_request_body;
  if (peer.disable_stream) {
    // SGLang's bench_serving takes a whole answer's latency as its TTFT (and has no ITL); bench
    // reports no TTFT, ITL or TPOT of a request it did not stream.
    r.run.no_stream = true;
    r.note(
        "--disable-stream: \"stream\": false (bench's --no-stream); SGLang reports the whole "
        "latency as TTFT, bench no TTFT, ITL or TPOT, only E2E");
  }
  if (r.sglang()) {
    if (peer.disable_ignore_eos && given(r.app, "--ignore-eos")) {
      throw UsageError("--disable-ignore-eos and --ignore-eos: give one");
    }
    r.run.ignore_eos = !peer.disable_ignore_eos;
    const bool temperature_in_body =
        nlohmann::json::parse(r.run.extra_body.empty() ? "{}" : r.run.extra_body, nullptr, false)
            .contains("temperature");
    if (!r.run.temperature && !temperature_in_body) r.run.temperature = 0.0;
    r.note(fmt::format(
        "SGLang's sampling defaults: temperature {}, ignore_eos {}",
        temperature_in_body ? "from --extra-request-body" : fmt::format("{:g}", *r.run.temperature),
        r.run.ignore_eos ? "on (--disable-ignore-eos turns it off)" : "off"));
  } else if (r.run.dataset.kind == DatasetKind::random && !r.run.ignore_eos) {
    r.run.ignore_eos = true;
    r.note("vLLM's random dataset sends ignore_eos: on, so every request generates its max_tokens");
  }
}

// vLLM's sampling flags go in the body, as vLLM sends them (beside --extra-body's keys, which
// win, as vLLM merges extra_body last).
void read_sampling_flags(PeerReading& r) {
  const RawPeerFlags& peer = r.raw.peer;
  nlohmann::json body = nlohmann::json::object();
  if (peer.top_p) body["top_p"] = *peer.top_p;
  if (peer.top_k) body["top_k"] = *peer.top_k;
  if (peer.min_p) body["min_p"] = *peer.min_p;
  if (peer.repetition_penalty) body["repetition_penalty"] = *peer.repetition_penalty;
  if (body.empty()) return;
  if (!r.run.extra_body.empty()) {
    const nlohmann::json extra = nlohmann::json::parse(r.run.extra_body, nullptr, false);
    if (extra.is_object()) body.update(extra);  // a bad one is refused by validate_run
    if (!extra.is_object()) return;
  }
  r.run.extra_body = body.dump();
}

// The flags whose work bench does not do or need, said once each.
void note_noop_flags(PeerReading& r) {
  const RawPeerFlags& peer = r.raw.peer;
  if (peer.apply_chat_template) {
    r.note(
        "--apply-chat-template: bench sends each prompt as text; a chat endpoint's server "
        "applies its template");
  }
  if (peer.tokenize_prompt) r.note("--tokenize-prompt: bench sends each prompt as text");
  if (peer.profile)
    r.note("--profile: bench starts no server profiler; the run goes on without it");
  if (peer.output_details) {
    r.note("--output-details: the per-request records are bench's --save-requests FILE");
  }
  if (!peer.served_model_name.empty()) {
    if (!r.run.model.empty() && r.run.model != peer.served_model_name) {
      r.note(fmt::format("--served-model-name {}: the model name sent (--model {} is not sent)",
                         peer.served_model_name, r.run.model));
    }
    r.run.model = peer.served_model_name;
  }
}

// The peer's result files and stdout block: vLLM's block follows the text report (auto_tune.sh
// scrapes it); SGLang's --output-file appends its own line; both files name the backend.
void read_result_files(PeerReading& r) {
  results::PeerResultOptions& files = r.run.output.peer_results;
  files.backend = r.raw.peer.backend.empty() ? (r.sglang() ? "sglang" : "") : r.raw.peer.backend;
  refuse_both(r, "--tag", !r.raw.peer.tag.empty(), "--label");
  if (!r.raw.peer.tag.empty()) files.label = r.raw.peer.tag;
  if (r.sglang()) {
    files.sglang_output_file = true;
    if (!r.run.output.output_file.empty()) {
      r.note(fmt::format("--output-file {}: SGLang's result line, appended",
                         r.run.output.output_file));
    }
  } else {
    files.vllm_summary = true;
  }
}

// The peers' defaults bench does not take, each because it would falsify a figure.
void keep_bench_rules(PeerReading& r) {
  if (!given(r.app, "--seed")) {
    r.run.peer_defaults_not_taken.push_back(fmt::format(
        "--seed: a new seed each run, not {} fixed {} (it would resend the last run's prompts "
        "to a prefix cache that may still hold them, and a warm cache answers faster)",
        r.peer(), r.sglang() ? "42 (1 in its older bench_serving.py)" : "0"));
  }
}

// SGLang warms up with one request (--warmup-requests 1), waits for it and a second, then
// starts its clock; bench's warm-up requests share the first measured wave's slots, so at a
// closed loop's concurrency one would add a wave to the measured phase and lower its figures
// (scripts/peer-differential: 38.7 against 48.3 req/s at concurrency 64). Not taken.
void read_warmup(PeerReading& r) {
  if (!r.sglang() || given(r.app, "--warmup-requests") || given(r.app, "--warmup-duration")) return;
  r.run.peer_defaults_not_taken.push_back(
      "--warmup-requests: none, not SGLang's 1 (SGLang waits for its warm-up before its clock "
      "starts; bench's shares the first measured wave's slots and would lower the figures)");
}

// Neither peer caps requests in flight unless --max-concurrency: in a closed loop (rate inf,
// their default) every request is sent at once.
void read_concurrency(PeerReading& r) {
  if (given(r.app, "--concurrency")) return;
  if (r.raw.request_rate != "inf" || r.run.ramp_up_strategy != schedule::RampStrategy::none ||
      r.run.dataset.kind == DatasetKind::trace) {
    return;  // an open loop: bench applies no cap either (finish_load_flags)
  }
  const std::int64_t requests = requests_of(r);
  r.raw.concurrency = std::to_string(requests);
  r.note(fmt::format(
      "no --max-concurrency and --request-rate inf: {} sends all {} requests at once, and so does "
      "bench (concurrency {}; bench's own default is 64)",
      r.who(), requests, requests));
}

}  // namespace

// SGLang's own backend speaks its native /generate, which bench does not: it sends OpenAI's
// /v1/completions, which SGLang serves beside it (said by read_endpoint).
std::span<const PeerBackend> peer_backends() {
  static constexpr PeerBackend kBackends[] = {
      {"openai", protocol::Endpoint::completions, Dialect::vllm},
      {"vllm", protocol::Endpoint::completions, std::nullopt},
      {"openai-chat", protocol::Endpoint::chat, Dialect::vllm},
      {"openai-responses", protocol::Endpoint::responses, Dialect::vllm},
      {"vllm-chat", protocol::Endpoint::chat, Dialect::sglang},
      {"sglang", protocol::Endpoint::completions, Dialect::sglang},
      {"sglang-native", protocol::Endpoint::completions, Dialect::sglang},
      {"sglang-oai", protocol::Endpoint::completions, Dialect::sglang},
      {"sglang-oai-chat", protocol::Endpoint::chat, Dialect::sglang},
      {"lmdeploy", protocol::Endpoint::completions, Dialect::sglang},
  };
  return kBackends;
}

void read_peer_flags(const CLI::App& app, RunOptions& run, RawRunFlags& raw) {
  // vLLM's result flags work in any dialect; vLLM ignores a metric name it does not know, and so
  // does bench, saying so.
  const results::PeerResultOptions& files = run.output.peer_results;
  if (!files.unknown_percentile_metrics.empty()) {
    run.dialect_notes.push_back(
        fmt::format("--percentile-metrics: {} not vLLM's (ttft, tpot, itl, e2el); ignored, as "
                    "vLLM ignores it",
                    fmt::join(files.unknown_percentile_metrics, ", ")));
  }
  const std::optional<DialectReading> dialect = dialect_of(app, raw.peer);
  if (!dialect) return;
  run.dialect = dialect->dialect;
  PeerReading reading{app, run, raw};
  reading.note(fmt::format("reading this command line as {} ({})", reading.peer(), dialect->why));
  read_target(reading);
  read_endpoint(reading);
  read_peer_dataset(reading);
  read_sampling(reading);
  read_sampling_flags(reading);
  note_noop_flags(reading);
  read_result_files(reading);
  read_warmup(reading);
  read_concurrency(reading);
  keep_bench_rules(reading);
}

}  // namespace bench::cli
