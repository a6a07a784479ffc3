#include "bench/sim/profiles.hpp"

#include <array>
#include <cmath>
#include <stdexcept>

#include "bench/sim/batching_model.hpp"

namespace bench::sim {

namespace {

// The numbers and their sources are in docs/simulator.md ("Profiles"); keep the two in step.
EngineParams tiny_engine() {
  EngineParams p;
  p.max_running_requests = 256;
  p.kv_cache_tokens = 1'000'000;
  p.max_batched_tokens = 2048;
  p.prefill_us_per_token = 2;
  p.step_us = 1000;
  p.decode_us_per_seq = 10;
  p.decode_ns_per_context_token = 0;
  p.comm_us_per_step = 0;
  return p;
}

// Llama 3.1 8B in BF16 on one H100 SXM 80 GB, vLLM V1 defaults for an API server on a GPU
// with >= 70 GiB (max_num_seqs 1024, max_num_batched_tokens 8192).
EngineParams h100_dense_8b_engine() {
  EngineParams p;
  p.max_running_requests = 1024;
  p.kv_cache_tokens = 400'000;  // (72 GB - 16 GB weights - 4 GB) / 128 KiB per token
  p.max_batched_tokens = 8192;
  p.prefill_us_per_token = 30;  // 16 GFLOP per token at ~55% of 989 TFLOPS
  p.step_us = 5500;             // 16 GB of weights at ~85% of 3.35 TB/s, plus launch
  p.decode_us_per_seq = 15;
  p.decode_ns_per_context_token = 45;  // 128 KiB of KV per token at ~85% of 3.35 TB/s
  p.comm_us_per_step = 0;              // one GPU: no collectives
  return p;
}

// A 744B MoE (GLM-5, 78 layers, hidden 6144) in NVFP4 on eight RTX PRO 6000 Blackwell GPUs
// joined by PCIe only, tensor parallel 8, SGLang with --max-running-requests 1024. Fit to its
// measured 622 output tok/s at concurrency 256 (256 in / 128 out); docs/simulator.md, "Profile
// parameters", has the measurements and the fit.
EngineParams pcie_8gpu_moe_engine() {
  EngineParams p;
  p.max_running_requests = 1024;
  p.kv_cache_tokens = 600'000;   // ~30 GB per GPU left for an FP8 MLA cache, ~45 KB/token
  p.max_batched_tokens = 8192;   // SGLang's chunked_prefill_size below 160 GB of memory
  p.prefill_us_per_token = 150;  // ~134 us of all-reduce bytes per token over PCIe + compute
  p.step_us = 273'000;           // fit (see docs/simulator.md): far above the weight roofline
  p.decode_us_per_seq = 233;     // the same per-token all-reduce bytes + expert GEMMs
  p.decode_ns_per_context_token = 0;
  p.comm_us_per_step = 2028;  // 2 all-reduces x 78 layers x 13 us latency floor
  return p;
}

const std::array<Profile, 5>& table() {
  static const std::array<Profile, 5> kProfiles = {{
      {"fixed",
       ProfileKind::fixed,
       "every request on its own clock: --ttft-ms, then a token every --tpot-ms, whatever the "
       "load",
       50,
       10,
       {}},
      {"firehose",
       ProfileKind::fixed,
       "no delays: tokens as fast as the client reads them (for client and server throughput)",
       0,
       0,
       {}},
      {"tiny", ProfileKind::batching,
       "a small, fast continuous-batching engine for tests (1 ms steps)", 0, 0, tiny_engine()},
      {"h100-dense-8b", ProfileKind::batching,
       "an 8B dense model on one H100 SXM (vLLM-like defaults, prefix cache on)", 0, 0,
       h100_dense_8b_engine(), true},
      {"pcie-8gpu-moe", ProfileKind::batching,
       "a 744B MoE on 8 PCIe GPUs: costly all-reduce per token, cheap batched prefill "
       "(docs/simulator.md), prefix cache on",
       0, 0, pcie_8gpu_moe_engine(), true},
  }};
  return kProfiles;
}

template <typename T>
void apply(T& value, const std::optional<T>& override_value) {
  if (override_value) value = *override_value;
}

}  // namespace

std::span<const Profile> profiles() { return table(); }

const Profile* find_profile(std::string_view name) {
  for (const Profile& profile : table()) {
    if (profile.name == name) return &profile;
  }
  return nullptr;
}

std::string profile_names() {
  std::string names;
  for (const Profile& profile : table()) {
    if (!names.empty()) names += ", ";
    names += profile.name;
  }
  return names;
}

EngineParams resolve_engine(const Profile& profile, const EngineOverrides& overrides) {
  EngineParams params = profile.engine;
  apply(params.max_running_requests, overrides.max_running_requests);
  apply(params.kv_cache_tokens, overrides.kv_cache_tokens);
  apply(params.max_batched_tokens, overrides.max_batched_tokens);
  apply(params.prefill_us_per_token, overrides.prefill_us_per_token);
  apply(params.step_us, overrides.step_us);
  apply(params.decode_us_per_seq, overrides.decode_us_per_seq);
  apply(params.decode_ns_per_context_token, overrides.decode_ns_per_context_token);
  apply(params.comm_us_per_step, overrides.comm_us_per_step);
  return params;
}

std::unique_ptr<GenerationModel> make_generation_model(const SimOptions& options) {
  const Profile* profile = find_profile(options.profile);
  if (profile == nullptr) {
    throw std::invalid_argument("--profile: unknown profile '" + options.profile +
                                "' (known: " + profile_names() + ")");
  }
  if (!(options.time_scale > 0) || !std::isfinite(options.time_scale)) {
    throw std::invalid_argument("--time-scale must be a number > 0");
  }
  if (profile->kind == ProfileKind::batching) {
    return std::make_unique<BatchingModel>(resolve_engine(*profile, options.engine),
                                           options.time_scale);
  }
  const bool firehose = profile->name == "firehose";
  const double ttft_ms = firehose ? 0.0 : options.ttft_ms;
  const double tpot_ms = firehose ? 0.0 : options.tpot_ms;
  return std::make_unique<FixedLatencyModel>(std::llround(ttft_ms * 1e6 / options.time_scale),
                                             std::llround(tpot_ms * 1e6 / options.time_scale),
                                             options.tokens_per_chunk);
}

std::unique_ptr<PrefixCache> make_prefix_cache(const SimOptions& options) {
  const Profile* profile = find_profile(options.profile);
  if (profile == nullptr || !options.prefix_cache.value_or(profile->prefix_cache)) return nullptr;
  // Every block of the KV pool can hold a cached prefix, as in vLLM's block pool. Fixed
  // profiles have no budget of their own: the default engine's stands in.
  const EngineParams engine = resolve_engine(*profile, options.engine);
  return std::make_unique<PrefixCache>(engine.kv_cache_tokens / kPrefixBlockTokens);
}

}  // namespace bench::sim
