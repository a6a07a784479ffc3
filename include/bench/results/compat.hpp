#pragma once
// --json-compat vllm|sglang: the results object as a script written for a peer tool's result
// file reads it. bench's {stat}_itl_ms is per token; vLLM's and SGLang's itl is the gap between
// chunks (bench's icl), the same only when every chunk carries one token. The view gives the
// itl keys the peers' meaning and names the figures as their files do.
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/results/shape.hpp"

namespace bench::results {

enum class Compat { vllm, sglang };

/// "vllm" or "sglang"; nullopt for anything else.
std::optional<Compat> parse_compat(std::string_view name);

/// The view of a run or sweep (every point): {stat}_itl_ms holds the per-chunk gaps
/// ({stat}_icl_ms), bench's per-token figures move to {stat}_itl_per_token_ms, and "json_compat"
/// names the view. vllm also gets its own names: {stat}_e2el_ms (vllm/benchmarks/serve.py),
/// total_token_throughput and request_goodput. Every other key is kept.
nlohmann::json compat_view(const nlohmann::json& results, Compat compat);

/// A peer tool's result key for one of bench's figures. SGLang's keys are bench's own (but
/// for the meaning of itl, which compat_view moves rather than renames); vLLM names three
/// figures its own way (vllm/benchmarks/serve.py): total_token_throughput, request_goodput
/// and {stat}_e2el_ms.
struct KeyAlias {
  std::string peer;   // "total_token_throughput"
  std::string bench;  // "total_throughput"
};

/// The one table of the peers' names: compat_view writes them, native_view reads them back,
/// and gates and compare accept them for bench's.
const std::vector<KeyAlias>& key_aliases();

/// bench's key for a peer's name of the same figure ("total_token_throughput" gives
/// "total_throughput"); nullopt when `name` is no alias.
std::optional<std::string> aliased_key(std::string_view name);

/// What "json_compat" marks a view with, in a run object or a sweep: "json_compat".
inline constexpr std::string_view kCompatKey = "json_compat";

/// A results object as bench defines its keys, whichever way it was written: a compat_view
/// (its "json_compat") is turned back ({stat}_itl_ms per token again, from
/// {stat}_itl_per_token_ms; the peers' extra names dropped), so compare and report read a
/// per-chunk figure as per chunk; a native object comes back unchanged. A FormatError naming
/// `name` when "json_compat" names no view this bench writes, or the view lacks the per-token
/// ITL it needs to be read by bench's definitions.
std::variant<nlohmann::json, FormatError> native_view(const nlohmann::json& results,
                                                      std::string_view name);

}  // namespace bench::results
