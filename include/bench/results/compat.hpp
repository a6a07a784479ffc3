#pragma once
// --json-compat vllm|sglang: the results object as a script written for a peer tool's result
// file reads it. bench's {stat}_itl_ms is per token; vLLM's and SGLang's itl is the gap between
// chunks (bench's icl), the same only when every chunk carries one token. The view gives the
// itl keys the peers' meaning and names the figures as their files do.
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace bench::results {

enum class Compat { vllm, sglang };

/// "vllm" or "sglang"; nullopt for anything else.
std::optional<Compat> parse_compat(std::string_view name);

/// The view of a run or sweep (every point): {stat}_itl_ms holds the per-chunk gaps
/// ({stat}_icl_ms), bench's per-token figures move to {stat}_itl_per_token_ms, and "json_compat"
/// names the view. vllm also gets its own names: {stat}_e2el_ms (vllm/benchmarks/serve.py),
/// total_token_throughput and request_goodput. Every other key is kept.
nlohmann::json compat_view(const nlohmann::json& results, Compat compat);

}  // namespace bench::results
