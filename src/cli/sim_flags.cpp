#include "bench/cli/sim_flags.hpp"

#include <map>

#include "bench/cli/number_checks.hpp"
#include "bench/sim/profiles.hpp"
#include "bench/sim/prompt_counter.hpp"
#include "bench/sim/tokenize_routes.hpp"

namespace bench::cli {

namespace {

using sim::ProfileKind;

// The profiles' summaries name the simulator's flags as serve-sim spells them (--ttft-ms); the
// run's help gives them its own spelling (--sim-ttft-ms).
std::string profile_help(const std::string& prefix) {
  std::string help = "Timing model:";
  for (const sim::Profile& profile : sim::profiles()) {
    help += "\n  ";
    help += profile.name;
    help += ": ";
    std::string summary(profile.summary);
    for (std::size_t at = summary.find("--"); at != std::string::npos;
         at = summary.find("--", at + prefix.size())) {
      summary.replace(at, 2, prefix);
    }
    help += summary;
  }
  help += "\nFlags below override single parameters (docs/simulator.md)";
  return help;
}

// A flag that only means something for some profiles: naming it with another profile is a
// usage error, not silently ignored. CLI11 runs validators in the order options were added, and
// the profile flag is added first, so `sim.profile` already holds the user's choice here.
CLI::Validator only_for(const sim::SimOptions& sim, const std::string& prefix, bool fixed_kind,
                        bool firehose_too) {
  return CLI::Validator(
      [&sim, prefix, fixed_kind, firehose_too](std::string&) -> std::string {
        const sim::Profile* profile = sim::find_profile(sim.profile);
        if (profile == nullptr) return {};  // --profile reports the unknown name itself
        const bool fixed = profile->kind == ProfileKind::fixed;
        const bool firehose = profile->name == "firehose";
        if (fixed_kind ? (fixed && (!firehose || firehose_too)) : !fixed) return {};
        const std::string which = fixed_kind ? (firehose_too ? "fixed or firehose" : "fixed")
                                             : "tiny, h100-dense-8b or pcie-8gpu-moe";
        return "applies to " + prefix + "profile " + which + ", not '" + sim.profile + "'";
      },
      "");
}

// --tokenize-dialect, --chat-template, --tokenizer: how the server counts and names tokens.
void add_token_flags(CLI::App& app, sim::SimOptions& sim, const std::string& prefix,
                     const std::string& group) {
  app.add_option_function<std::string>(
         prefix + "tokenize-dialect",
         [&sim](const std::string& word) {
           sim.tokenize_dialect = *sim::parse_tokenize_dialect(word);
         },
         "The /tokenize endpoint's dialect: vllm (also SGLang's), llamacpp (with "
         "/apply-template), tgi, or none (404) (default: vllm)")
      ->check(CLI::IsMember({"vllm", "llamacpp", "tgi", "none"}))
      ->group(group);
  app.add_option_function<std::string>(
         prefix + "chat-template",
         [&sim](const std::string& word) { sim.chat_template = *sim::parse_chat_template(word); },
         "Chat prompts: none (content only) or llama-2 (BOS, [INST] ... [/INST]: one user "
         "message costs 3 template tokens by the word rule; with a tokenizer, what it makes "
         "of the markers, 8 with llama-2's) (default: none)")
      ->check(CLI::IsMember({"none", "llama-2"}))
      ->group(group);
  app.add_option(prefix + "tokenizer", sim.tokenizer_path,
                 "Count prompt tokens with this Hugging Face tokenizer.json instead of the "
                 "word rule")
      ->group(group);
}

}  // namespace

void add_sim_flags(CLI::App& app, sim::SimOptions& sim, const std::string& prefix) {
  // serve-sim lists its flags by topic; a run's --help names its --sim-* flags in one line
  // (kEmbeddedServerGroup), so they go in one group.
  const bool run = prefix != "--";
  const std::string timing = run ? std::string(kEmbeddedServerGroup) : "Timing";
  const std::string engine = run ? std::string(kEmbeddedServerGroup) : "Batching engine";
  const std::string faults = run ? std::string(kEmbeddedServerGroup) : "Faults";
  const std::string dialect = run ? std::string(kEmbeddedServerGroup) : "Dialect";
  const auto fixed_only = only_for(sim, prefix, true, false);
  const auto fixed_or_firehose = only_for(sim, prefix, true, true);
  const auto batching_only = only_for(sim, prefix, false, false);

  app.add_option(prefix + "profile", sim.profile, profile_help(prefix))
      ->check(CLI::IsMember([] {
        std::vector<std::string> names;
        for (const sim::Profile& profile : sim::profiles()) names.emplace_back(profile.name);
        return names;
      }()))
      ->capture_default_str()
      ->group(timing);
  app.add_option(prefix + "ttft-ms", sim.ttft_ms, "fixed: time to first token, ms")
      ->check(non_negative_number() & fixed_only)
      ->capture_default_str()
      ->group(timing);
  app.add_option(prefix + "tpot-ms", sim.tpot_ms, "fixed: time per output token, ms")
      ->check(non_negative_number() & fixed_only)
      ->capture_default_str()
      ->group(timing);
  app.add_option(prefix + "tokens-per-chunk", sim.tokens_per_chunk,
                 "fixed, firehose: tokens carried by each streamed chunk")
      ->check(CLI::Range(1, 1 << 20) & fixed_or_firehose)
      ->capture_default_str()
      ->group(timing);
  app.add_option(prefix + "time-scale", sim.time_scale,
                 "Run simulated time this many times faster than real time: every modelled "
                 "duration (ttft, tpot, engine steps) is divided by it, so tok/s multiply by it. "
                 "Stalls and Retry-After stay in real seconds")
      ->check(positive_number())
      ->capture_default_str()
      ->group(timing);

  const auto engine_option = [&](const std::string& name, auto& field, const std::string& help,
                                 const CLI::Validator& range) {
    app.add_option(prefix + name, field, help + " (default: the profile's)")
        ->check(range & batching_only)
        ->group(engine);
  };
  const CLI::Validator count = positive_number();
  engine_option("max-running-requests", sim.engine.max_running_requests,
                "Sequences in the engine at once; the rest wait in the queue (SGLang's flag, "
                "vLLM's --max-num-seqs)",
                count);
  engine_option("kv-cache-tokens", sim.engine.kv_cache_tokens,
                "KV cache budget, tokens: a request needs prompt + max_tokens of it to start",
                count);
  engine_option("max-batched-tokens", sim.engine.max_batched_tokens,
                "Tokens computed per step, decodes plus prefill chunks (vLLM's "
                "--max-num-batched-tokens, SGLang's --chunked-prefill-size)",
                count);
  engine_option("step-us", sim.engine.step_us,
                "Fixed cost of every step (reading the weights), microseconds",
                non_negative_number());
  engine_option("comm-us-per-step", sim.engine.comm_us_per_step,
                "Collective latency per step (tensor-parallel all-reduces), microseconds",
                non_negative_number());
  engine_option("decode-us-per-seq", sim.engine.decode_us_per_seq,
                "Cost of each decoding sequence in a step, microseconds", non_negative_number());
  engine_option("decode-ns-per-context-token", sim.engine.decode_ns_per_context_token,
                "Attention cost per cached token of each decoding sequence, nanoseconds",
                non_negative_number());
  engine_option("prefill-us-per-token", sim.engine.prefill_us_per_token,
                "Cost of each prompt token computed in a step, microseconds",
                non_negative_number());

  app.add_option(prefix + "prefix-cache", sim.prefix_cache,
                 "Prefix cache (16-token blocks, LRU, sized to the KV budget): cached prompt "
                 "blocks skip prefill and are reported as usage.prompt_tokens_details"
                 ".cached_tokens; POST /flush_cache or /reset_prefix_cache empties it. "
                 "on|off (default: the profile's; on in h100-dense-8b and pcie-8gpu-moe)")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, std::string>{{"on", "true"}, {"off", "false"}}))
      ->type_name("on|off")
      ->group(engine);
  app.add_flag(prefix + "no-usage{false}", sim.send_usage,
               "Never send usage, neither the usage chunk nor per-chunk usage (clients must "
               "estimate token counts)")
      ->group(dialect);
  app.add_option(prefix + "eos-probability", sim.eos_probability,
                 "Per-token probability of stopping early when ignore_eos is not set")
      ->check(number_range(0.0, 1.0))
      ->capture_default_str()
      ->group(dialect);
  app.add_option_function<std::string>(
         prefix + "answers",
         [&sim](const std::string& word) { sim.answers = *sim::parse_sim_answers(word); },
         "What the generated words say: canned (the answer check's known-answer prompts get "
         "their right answer, any other prompt random words), random (random words always: a "
         "model with random weights), repeat (one word over and over), empty (no text) "
         "(default: canned)")
      ->check(CLI::IsMember({"canned", "random", "repeat", "empty"}))
      ->group(dialect);
  app.add_flag(prefix + "usage-on-last-chunk", sim.usage_on_last_chunk,
               "llama.cpp: usage rides on the finish_reason chunk (even unasked), no usage chunk")
      ->group(dialect);
  app.add_flag(prefix + "no-role-chunk", sim.no_role_chunk,
               "llama.cpp: chat streams start with content, without a role-only delta")
      ->group(dialect);
  app.add_flag(prefix + "refuse-unknown-model", sim.refuse_unknown_model,
               "vLLM: a request naming a model other than --model gets a 404 (by default the "
               "simulator answers for any name)")
      ->group(dialect);
  app.add_flag(prefix + "close-after-stream", sim.close_after_stream,
               "llama.cpp: say 'Keep-Alive: timeout=5, max=100', then close after each stream")
      ->group(dialect);
  app.add_option(
         prefix + "close-delay-us", sim.close_delay_us,
         "With " + prefix +
             "close-after-stream: close this many microseconds after the "
             "stream's last bytes, leaving a request sent meanwhile unread (llama.cpp: 8-90 us)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{10'000'000}))
      ->capture_default_str()
      ->group(dialect);
  app.add_option(prefix + "reasoning-tokens", sim.reasoning_tokens,
                 "A reasoning model: chat answers spend this many tokens on reasoning (deltas, "
                 "or a whole message's field) before the answer (within max_tokens), with "
                 "usage.completion_tokens_details.reasoning_tokens; 0: off")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{10'000'000}))
      ->capture_default_str()
      ->group(dialect);
  app.add_option(prefix + "reasoning-fraction", sim.reasoning_fraction,
                 "Fraction of chat answers that reason (drawn per request from " + prefix +
                     "seed); the "
                     "others answer at once and report 0 reasoning tokens")
      ->check(number_range(0.0, 1.0))
      ->capture_default_str()
      ->group(dialect);
  app.add_option_function<std::string>(
         prefix + "reasoning-field",
         [&sim](const std::string& word) {
           sim.reasoning_field = word == "reasoning" ? sim::ReasoningField::reasoning
                                                     : sim::ReasoningField::reasoning_content;
         },
         "The delta field reasoning streams in: reasoning_content (SGLang, DeepSeek, vLLM "
         "before 0.10) or reasoning (newer vLLM) (default: reasoning_content)")
      ->check(CLI::IsMember({"reasoning_content", "reasoning"}))
      ->group(dialect);
  app.add_option(prefix + "tool-call-fraction", sim.tool_call_fraction,
                 "Fraction of chat answers whose request has tools (and tool_choice not none) "
                 "that are a tool call, as vLLM sends one; tool_choice required or a "
                 "named function always calls (drawn per request from " +
                     prefix + "seed)")
      ->check(number_range(0.0, 1.0))
      ->capture_default_str()
      ->group(dialect);
  app.add_option(prefix + "image-patch-px", sim.image_patch_px,
                 "Pixels a side of one image token: an image_url image of W x H costs "
                 "ceil(W/P) x ceil(H/P) prompt tokens (14: CLIP ViT-L/14's patches)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{4096}))
      ->capture_default_str()
      ->group(dialect);
  app.add_option(prefix + "keepalive-timeout", sim.keepalive_timeout_s,
                 "Close a connection idle this many seconds, as servers do (vLLM: 5); 0: never")
      ->check(number_range(0.0, 3600.0))
      ->group(dialect);

  const auto fraction = [&](const std::string& name, double& field, const std::string& help) {
    app.add_option(prefix + name, field, "Fraction of requests: " + help)
        ->check(number_range(0.0, 1.0))
        ->capture_default_str()
        ->group(faults);
  };
  fraction("fail-429-fraction", sim.fail_429_fraction, "HTTP 429 with Retry-After");
  fraction("fail-500-fraction", sim.fail_500_fraction, "HTTP 500");
  fraction("fail-503-fraction", sim.fail_503_fraction, "HTTP 503 with Retry-After");
  fraction("reset-fraction", sim.reset_fraction, "connection reset (RST) mid-stream");
  fraction("stall-fraction", sim.stall_fraction,
           "no byte for " + prefix + "stall-s seconds mid-stream");
  app.add_option(prefix + "stall-s", sim.stall_s, "Length of each stall, seconds (real time)")
      ->check(non_negative_number())
      ->capture_default_str()
      ->group(faults);
  fraction("malformed-json-fraction", sim.malformed_json_fraction,
           "one data event that is not JSON, mid-stream");
  fraction("truncate-fraction", sim.truncate_fraction,
           "the stream ends mid-way without finish_reason or [DONE]");
  fraction("stream-error-fraction", sim.stream_error_fraction,
           "an error object inside the 200 stream, mid-way, then [DONE]");
  fraction("no-usage-fraction", sim.no_usage_fraction, "no usage anywhere");
  fraction("multi-token-fraction", sim.multi_token_fraction,
           "chunks carry " + prefix + "multi-token-count tokens each");
  app.add_option(prefix + "multi-token-count", sim.multi_token_count,
                 "Tokens per chunk in " + prefix + "multi-token-fraction responses")
      ->check(CLI::Range(2, 1 << 20))
      ->capture_default_str()
      ->group(faults);
  fraction("crlf-fraction", sim.crlf_fraction, "SSE lines end with CRLF");
  fraction("comment-fraction", sim.comment_fraction,
           "an SSE comment (': keep-alive') before every event");
  fraction("metrics-miscount-fraction", sim.metrics_miscount_fraction,
           "GET /metrics counts one generation token more than the response carried");
  app.add_option_function<std::string>(
         prefix + "metrics-family",
         [&sim](const std::string& word) { sim.metrics_family = *sim::parse_metrics_family(word); },
         "Whose names GET /metrics writes: vllm, sglang or llamacpp (default: vllm)")
      ->check(CLI::IsMember({"vllm", "sglang", "llamacpp"}))
      ->group(timing);
  // The GPUs' power model behind GET /metrics' DCGM series (sim/power_model.hpp).
  app.add_option(prefix + "gpus", sim.power.gpus,
                 "GPUs the DCGM-exporter series of GET /metrics are written for (energy and "
                 "power, one series per GPU)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1024}))
      ->capture_default_str()
      ->group(timing);
  app.add_option(prefix + "gpu-idle-watts", sim.power.idle_watts,
                 "Power model: each GPU's draw with nothing to do, W")
      ->check(number_range(0.0, 100'000.0))
      ->capture_default_str()
      ->group(timing);
  app.add_option(prefix + "joules-per-output-token", sim.power.joules_per_output_token,
                 "Power model: energy of one generated token, J (spread over the GPUs)")
      ->check(number_range(0.0, 1'000'000.0))
      ->capture_default_str()
      ->group(timing);
  app.add_option(prefix + "joules-per-input-token", sim.power.joules_per_input_token,
                 "Power model: energy of one prompt token, J (spread over the GPUs)")
      ->check(number_range(0.0, 1'000'000.0))
      ->capture_default_str()
      ->group(timing);
  app.add_option(prefix + "max-model-len", sim.max_model_len,
                 "Tokens one request may hold (prompt + output), said as max_model_len in "
                 "GET /v1/models")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40))
      ->capture_default_str()
      ->group(timing);
  app.add_option(prefix + "jitter-ms", sim.jitter_ms,
                 "Noise of a known size: each request waits a time drawn uniformly from "
                 "[0, 2 x this] ms (simulated, so divided by " +
                     prefix + "time-scale) before the model sees it, drawn from " + prefix +
                     "seed per request")
      ->check(number_range(0.0, 3'600'000.0))
      ->capture_default_str()
      ->group(faults);
  app.add_option(prefix + "seed", sim.seed,
                 "Seed of the simulator's choices (faults, early EOS), drawn per request in "
                 "arrival order")
      ->capture_default_str()
      ->check(non_negative_number())  // "-1" would be read as 2^64 - 1 (as --seed)
      ->group(faults);
  add_token_flags(app, sim, prefix, dialect);
  app.add_option(prefix + "trace", sim.trace_path,
                 "Write a JSONL truth log: server-side times of every request, chunk and "
                 "scheduler step (docs/simulator.md)")
      ->group(timing);
}

void setup_serve_sim_flags(CLI::App& command, sim::SimOptions& sim) {
  // Standalone, the simulator listens where vLLM does by default; embedded, it takes any port.
  sim.port = 8000;
  command.add_option("--host", sim.host, "Listen address")->capture_default_str();
  command.add_option("--port", sim.port, "Listen port (0 = any free port)")->capture_default_str();
  command.add_option("--model", sim.model, "Model id served")->capture_default_str();
  command
      .add_option("--max-tokens-default", sim.default_max_tokens,
                  "Output length when a request gives no max_tokens")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}))
      ->capture_default_str();
  add_sim_flags(command, sim, "--");
  command
      .add_option("--replay", sim.replay_dir,
                  "Serve a wire recording (bench record --out DIR) back, byte for byte, with "
                  "its timing and closes, instead of simulating; requests are matched by "
                  "method, path and stream, in turn (docs/wire-corpus.md). --trace writes "
                  "when each read was sent; the simulator's other flags are then unused")
      ->check(CLI::ExistingDirectory)
      ->group("Replay");
  command
      .add_option("--replay-speed", sim.replay_speed,
                  "With --replay: recorded times are divided by this (2 = twice as fast)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str()
      ->group("Replay");
}

}  // namespace bench::cli
