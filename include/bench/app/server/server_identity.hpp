#pragma once
// What the server says of itself, read once before the run and recorded in the results'
// "server" object: its family and version (vLLM's GET /version, SGLang's GET /server_info or
// /get_server_info, llama.cpp's GET /props), the model, and the longest sequence it accepts
// (max_model_len: prompt plus output tokens of one request), where it says so. Each probe that
// fails is skipped: an unknown field is null, never a guess. A run whose longest prompt plus
// max_tokens exceeds max_model_len is refused before it starts, when lengths are in tokens.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/engine/engine.hpp"
#include "bench/results/format.hpp"

namespace bench::app {

/// The results key of the object identity_json() writes.
inline constexpr std::string_view kServerKey = results::key::server;

struct ServerIdentity {
  std::optional<std::string> family;          // "vllm", "sglang", "llama.cpp"
  std::optional<std::string> version;         // as the server spells it
  std::optional<std::string> model;           // the model it serves (its id or path)
  std::optional<std::int64_t> max_model_len;  // tokens: prompt + output of one request
};

// Readers of each answer's body; each fills what it finds and returns whether the body was
// the answer it reads (a JSON object of that shape).

/// GET /v1/models: `model`'s max_model_len (vLLM's ModelCard, SGLang's too), and the family
/// from owned_by ("vllm", "sglang", "llamacpp").
bool read_models(std::string_view body, const std::string& model, ServerIdentity& identity);
/// vLLM's GET /version: {"version": "0.10.1"}.
bool read_vllm_version(std::string_view body, ServerIdentity& identity);
/// SGLang's GET /server_info (or /get_server_info): its server_args (model_path,
/// context_length) and "version".
bool read_sglang_server_info(std::string_view body, ServerIdentity& identity);
/// llama.cpp's GET /props: build_info, model_path, and default_generation_settings.n_ctx (the
/// context of one slot, which is what one request may hold).
bool read_llamacpp_props(std::string_view body, ServerIdentity& identity);
/// TGI's GET /info (text-generation-inference router/src/server.rs, Info): model_id, version,
/// max_total_tokens (prompt and output of one request), told by "router":
/// "text-generation-router".
bool read_tgi_info(std::string_view body, ServerIdentity& identity);
/// Ollama's GET /api/version (server/routes.go): {"version": "0.9.0"}.
bool read_ollama_version(std::string_view body, ServerIdentity& identity);

struct IdentityServer {
  std::string base_url;
  const std::vector<std::string>* headers = nullptr;
  engine::EngineOptions engine;
};

/// Asks the server: /v1/models, then /props, /server_info, /get_server_info and /version until
/// one names its family. `model` is the model the run asks for.
ServerIdentity probe_server_identity(const IdentityServer& server, const std::string& model);

/// Several servers (--base-url repeated): what the run is held to. A request may go to any of
/// them, so max_model_len is the smallest any server said; family, version and model are the
/// first's. `differences` gets one line for each later server whose known family, version or
/// model differs from the first's known one, naming it by `shown_urls` (same order).
ServerIdentity common_identity(const std::vector<ServerIdentity>& servers,
                               const std::vector<std::string>& shown_urls,
                               std::vector<std::string>& differences);

/// {"family", "version", "model", "max_model_len"}, null where unknown.
nlohmann::json identity_json(const ServerIdentity& identity);

/// The longest request of the run, against the server's max_model_len.
struct ContextFit {
  std::int64_t longest_prompt = 0;  // the longest prompt the workload draws (words or tokens)
  std::int64_t longest_output = 0;  // the largest max_tokens it sends
  // --multi-turn with random prompts: turns a session holds. Its last turn sends `turns`
  // prompts and the `turns - 1` replies before it, each up to longest_output tokens.
  std::int64_t turns = 1;
  bool in_tokens = false;  // false: longest_prompt counts words, an estimate
  std::optional<std::int64_t> max_model_len;
  // A dataset whose longest request (longest_prompt plus its own longest_output) was read from
  // it: its name ("sharegpt"), and how to make such a request fit (a flag, or what to change).
  // Empty for the random datasets, whose flags give both lengths.
  std::string dataset;
  std::string remedy;
};

/// The refusal (lengths in tokens) or the warning (random's lengths in words) when the longest
/// prompt plus max_tokens exceeds max_model_len; for a dataset read in words, a note that the
/// check could not be made (a word is no fixed number of tokens); for sessions of several
/// turns, a warning when a session's last turn (its whole history) may exceed it; nullopt when
/// it fits or the limit is unknown.
struct ContextVerdict {
  bool refuse = false;     // true: exit 2 before anything is sent
  bool unchecked = false;  // true: not a warning, a note that the check was not made
  std::string line;        // one line naming the numbers
};
std::optional<ContextVerdict> check_context_fit(const ContextFit& fit);

}  // namespace bench::app
