#pragma once
// The embedded server's tokenizer endpoints, in one of three servers' dialects, so bench's
// `--tokenizer server` can be tested against each without the real servers:
//   vllm      POST /tokenize {"model", "prompt"} or {"model", "messages"}
//             -> {"count", "max_model_len", "tokens", "token_strs": null}
//             (vLLM vllm/entrypoints/openai/protocol.py TokenizeRequest; SGLang answers the same)
//   llamacpp  POST /tokenize {"content", "add_special", "with_pieces"} -> {"tokens": [...]},
//             POST /apply-template {"messages"} -> {"prompt"} (llama.cpp tools/server)
//   tgi       POST /tokenize {"inputs", "add_special_tokens"} -> [{"id", "text", "start",
//             "stop"}, ...], the model's special tokens first unless asked not to, with the
//             empty span (text-generation-inference router/src/server.rs, validation.rs)
//   none      no tokenizer endpoint: 404, as servers without one answer.
// Tokens are counted and named by the server's PromptCounter, the rule its usage follows.
#include <optional>
#include <string>
#include <string_view>

#include "bench/sim/prompt_counter.hpp"

namespace bench::sim {

enum class TokenizeDialect { vllm, llamacpp, tgi, none };
std::string_view tokenize_dialect_name(TokenizeDialect dialect);  // "vllm", "llamacpp", ...
std::optional<TokenizeDialect> parse_tokenize_dialect(std::string_view name);

struct RouteAnswer {
  int status = 200;
  std::string body;  // JSON
};

/// The answer to `method path` with `body` when `path` is a tokenizer endpoint of `dialect`;
/// nullopt when it is not one (the caller answers 404). `max_model_len` is vLLM's field.
std::optional<RouteAnswer> answer_tokenize_route(std::string_view method, std::string_view path,
                                                 std::string_view body, TokenizeDialect dialect,
                                                 const PromptCounter& counter,
                                                 std::int64_t max_model_len);

}  // namespace bench::sim
