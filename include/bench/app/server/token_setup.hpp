#pragma once
// What --tokenizer settles before a run: the tokenizer (a tokenizer.json, or the server's
// /tokenize with its dialect detected), and on the chat endpoint the chat template's overhead,
// measured rather than assumed: the server's tokenizer counts a one-message chat with its
// template (vLLM /tokenize "messages", llama.cpp /apply-template), or, when it cannot, one probe
// request's usage.prompt_tokens; either less the content's own tokens.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/engine/engine.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/tokenizer/tokenizer.hpp"
#include "bench/util/redact.hpp"

namespace bench::app {

struct TemplateOverhead {
  std::int64_t tokens = 0;
  std::string method;  // "server /tokenize", "probe usage.prompt_tokens"
};

/// The server a tokenizer setup talks to. Pointers outlive the call.
struct TokenServer {
  std::string base_url;
  std::string url;  // the run's endpoint
  const std::vector<std::string>* headers = nullptr;
  engine::EngineOptions engine;
  protocol::RequestOptions request;  // the model settled
  const util::Redactor* redactor = nullptr;
};

/// --tokenizer server: the server's tokenizer. Throws RunError (exit 3) when it has none.
std::shared_ptr<const tokenizer::Tokenizer> open_server_tokenizer(const TokenServer& server);

/// The chat template's tokens on a one-message chat, or nullopt when neither the tokenizer nor
/// a probe could tell (said by the caller). Throws RunError when the server refuses for good.
std::optional<TemplateOverhead> measure_template_overhead(const TokenServer& server,
                                                          const tokenizer::Tokenizer& tokenizer);

}  // namespace bench::app
