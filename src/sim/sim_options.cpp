#include "bench/sim/sim_options.hpp"

#include <iterator>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bench/sim/profiles.hpp"
#include "bench/util/clock.hpp"

namespace bench::sim {

namespace {

void describe_engine(std::string& text, const EngineParams& e) {
  fmt::format_to(std::back_inserter(text),
                 "continuous batching, up to {} running, KV {} tokens, {} tokens per step; "
                 "step {:g} ms + {:g} ms collectives + {:g} ms per decoding sequence",
                 e.max_running_requests, e.kv_cache_tokens, e.max_batched_tokens,
                 us_to_ms(e.step_us), us_to_ms(e.comm_us_per_step), us_to_ms(e.decode_us_per_seq));
  if (e.decode_ns_per_context_token > 0) {
    fmt::format_to(std::back_inserter(text), " + {:g} ns per cached token",
                   e.decode_ns_per_context_token);
  }
  fmt::format_to(std::back_inserter(text), " + {:g} ms per prompt token",
                 us_to_ms(e.prefill_us_per_token));
}

// Each fault's name and the fraction of requests it hits.
std::vector<std::pair<const char*, double>> fault_fractions(const SimOptions& o) {
  return {
      {"429", o.fail_429_fraction},
      {"500", o.fail_500_fraction},
      {"503", o.fail_503_fraction},
      {"reset", o.reset_fraction},
      {"stall", o.stall_fraction},
      {"malformed json", o.malformed_json_fraction},
      {"truncate", o.truncate_fraction},
      {"stream error", o.stream_error_fraction},
      {"no usage", o.no_usage_fraction},
      {"multi-token chunks", o.multi_token_fraction},
      {"crlf", o.crlf_fraction},
      {"comments", o.comment_fraction},
      {"metrics miscount", o.metrics_miscount_fraction},
  };
}

void describe_faults(std::string& text, const SimOptions& o) {
  std::string list;
  for (const auto& [name, fraction] : fault_fractions(o)) {
    if (fraction <= 0) continue;
    if (!list.empty()) list += ", ";
    fmt::format_to(std::back_inserter(list), "{} {:g}%", name, fraction * 100);
  }
  if (!list.empty()) text += ", faults: " + list;
  if (o.stall_fraction > 0)
    fmt::format_to(std::back_inserter(text), " (stalls of {:g} s)", o.stall_s);
}

}  // namespace

std::string describe(const SimOptions& options) {
  std::string text = "profile " + options.profile + ": ";
  const Profile* profile = find_profile(options.profile);
  if (profile == nullptr) {
    text += "unknown";
  } else if (profile->kind == ProfileKind::batching) {
    describe_engine(text, resolve_engine(*profile, options.engine));
  } else if (profile->name == "firehose") {
    text += fmt::format("no delays, {} token(s) per chunk", options.tokens_per_chunk);
  } else {
    text += fmt::format("ttft {} ms, tpot {} ms, {} token(s) per chunk", options.ttft_ms,
                        options.tpot_ms, options.tokens_per_chunk);
  }
  if (options.time_scale != 1.0) {
    text += fmt::format(", time scale {:g} (simulated time runs {:g}x faster than real time)",
                        options.time_scale, options.time_scale);
  }
  if (profile != nullptr && options.prefix_cache.value_or(profile->prefix_cache)) {
    text += ", prefix cache on";
  }
  if (!options.send_usage) text += ", no usage chunk";
  if (options.chat_template != ChatTemplate::none) {
    text += fmt::format(", chat template {}", chat_template_name(options.chat_template));
  }
  if (options.tokenizer) text += ", tokens counted by " + options.tokenizer->description();
  if (options.eos_probability > 0)
    text += fmt::format(", eos probability {}", options.eos_probability);
  if (options.jitter_ms > 0) {
    text += fmt::format(", jitter: each request waits 0-{:g} ms (mean {:g} ms) before the model",
                        2 * options.jitter_ms, options.jitter_ms);
  }
  if (options.reasoning_tokens > 0) {
    text += fmt::format(", reasoning: {} tokens in {} deltas first", options.reasoning_tokens,
                        reasoning_field_name(options.reasoning_field));
    if (options.reasoning_fraction < 1.0) {
      text += fmt::format(" on {:g}% of chat streams", options.reasoning_fraction * 100);
    }
  }
  if (options.tool_call_fraction > 0) {
    text += fmt::format(", tool calls: {:g}% of chat streams with tools",
                        options.tool_call_fraction * 100);
  }
  describe_faults(text, options);
  if (options.usage_on_last_chunk || options.no_role_chunk || options.close_after_stream) {
    text += ", llama.cpp quirks:";
    if (options.usage_on_last_chunk) text += " usage on the last chunk";
    if (options.no_role_chunk) text += " no role chunk";
    if (options.close_after_stream) text += " close after each stream";
    if (options.close_after_stream && options.close_delay_us > 0) {
      text += fmt::format(" ({} us after its last bytes)", options.close_delay_us);
    }
  }
  if (options.keepalive_timeout_s > 0) {
    text += fmt::format(", idle connections closed after {:g} s", options.keepalive_timeout_s);
  }
  return text;
}

nlohmann::json settings_json(const SimOptions& options) {
  nlohmann::json faults = nlohmann::json::object();
  for (const auto& [name, fraction] : fault_fractions(options)) {
    if (fraction > 0) faults[name] = fraction;
  }
  if (!options.send_usage) faults["no usage"] = 1.0;
  nlohmann::json settings = {{"profile", options.profile},
                             {"time_scale", options.time_scale},
                             {"faults", faults},
                             {"seed", options.seed},
                             {"description", describe(options)}};
  // Only when set, so results without a jitter keep the keys they always had.
  if (options.jitter_ms > 0) settings["jitter_ms"] = options.jitter_ms;
  if (options.reasoning_tokens > 0) {
    settings["reasoning"] = {{"tokens", options.reasoning_tokens},
                             {"fraction", options.reasoning_fraction},
                             {"field", reasoning_field_name(options.reasoning_field)}};
  }
  if (options.tool_call_fraction > 0) settings["tool_call_fraction"] = options.tool_call_fraction;
  // Only when not the default 14, so earlier results keep their keys.
  if (options.image_patch_px != 14) settings["image_patch_px"] = options.image_patch_px;
  return settings;
}

}  // namespace bench::sim
