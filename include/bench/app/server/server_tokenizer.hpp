#pragma once
// `--tokenizer server`: the server's own tokenizer, through its HTTP endpoints, behind the same
// Tokenizer interface as a tokenizer.json read natively. Three dialects, told apart once, before
// the run, by what POST /tokenize answers:
//   vllm      {"model", "prompt", "add_special_tokens": false} -> {"count", "tokens", ...};
//             chat: {"model", "messages", "add_generation_prompt": true} (the template
//             applied); POST /detokenize {"model", "tokens"} -> {"prompt"}.
//             vLLM vllm/entrypoints/openai/serving_tokenization.py; SGLang answers the same.
//   llamacpp  {"content"} -> {"tokens": [...]}; chat: POST /apply-template {"messages"} ->
//             {"prompt"}, then /tokenize {"content", "add_special": true} (BOS included, as
//             llama.cpp's chat completions tokenize it); POST /detokenize {"tokens"} ->
//             {"content"}. llama.cpp tools/server/server.cpp (handle_tokenize, ...).
//   tgi       {"inputs", "add_special_tokens": false} -> [{"id", "text", "start", "stop"},
//             ...]; no chat, no detokenize. text-generation-inference router/src/server.rs
//             (tokenize) and router/src/validation.rs (the special tokens, added by default).
// Every call is one blocking HTTP exchange: it is for the work done before a run and on the
// prompt feed's producer thread, never on the event loop.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/engine/engine.hpp"
#include "bench/tokenizer/tokenizer.hpp"
#include "bench/util/redact.hpp"

namespace bench::app {

enum class ServerDialect { vllm, llamacpp, tgi };
std::string_view server_dialect_name(ServerDialect dialect);  // "vLLM", "llama.cpp", "TGI"

/// Where the server is and how to talk to it. The pointers outlive the tokenizer.
struct TokenizerServer {
  std::string base_url;                               // "http://host:port", no trailing slash
  const std::vector<std::string>* headers = nullptr;  // the run's, the API key's included
  engine::EngineOptions engine;                       // timeouts, TLS
  std::string model;                                  // vLLM's "model" field
  const util::Redactor* redactor = nullptr;           // hides credentials in server text
};

class ServerTokenizer final : public tokenizer::Tokenizer {
 public:
  /// Detects the dialect with POST /tokenize of a short text. Throws RunError (exit 3) in one
  /// line when the server has no /tokenize or answers in no dialect bench knows.
  static std::unique_ptr<ServerTokenizer> open(TokenizerServer server);

  std::vector<tokenizer::TokenId> encode(std::string_view text) const override;
  std::string decode(const std::vector<tokenizer::TokenId>& ids) const override;
  const std::vector<std::string>& special_tokens() const override { return special_tokens_; }
  const std::string& description() const override { return description_; }
  /// The special tokens the server adds to a completions prompt (a llama-2 model's BOS),
  /// measured once when opened: /tokenize of a short text with them asked for and without
  /// (vLLM's add_special_tokens, llama.cpp's add_special); TGI's by tgi_added_positions of its
  /// default answer. nullopt when the answers cannot say.
  std::optional<std::size_t> added_special_tokens() const override { return added_special_tokens_; }

  /// The prompt tokens of a chat request as the server counts them (its chat template and BOS
  /// included); nullopt when the dialect cannot say (TGI). Throws TokenizerError.
  std::optional<std::size_t> count_chat(const nlohmann::json& messages) const;

  ServerDialect dialect() const { return dialect_; }

  /// Requests sent to the server's tokenizer endpoints so far (/tokenize, /apply-template),
  /// from every thread: made during a run, they load the server under test.
  std::uint64_t requests_sent() const { return requests_sent_.load(std::memory_order_relaxed); }

 private:
  ServerTokenizer(TokenizerServer server, ServerDialect dialect);
  nlohmann::json post(std::string_view path, const nlohmann::json& body) const;
  std::vector<tokenizer::TokenId> ids_in(const nlohmann::json& answer) const;  // or throws
  std::vector<tokenizer::TokenId> tokenize(const nlohmann::json& body) const;
  std::vector<tokenizer::TokenId> tgi_content(const std::string& text) const;

  TokenizerServer server_;
  ServerDialect dialect_;
  std::vector<std::string> special_tokens_;  // servers do not list theirs: empty
  std::optional<std::size_t> added_special_tokens_;
  std::string description_;
  mutable std::atomic<std::uint64_t> requests_sent_{0};
};

/// Where a TGI /tokenize answer ([{"id", "text", "start", "stop"}, ...]) holds the special
/// tokens its tokenizer's post-processor added (a llama model's BOS): the tokens at either end
/// whose span is empty, the span Hugging Face tokenizers give an added special token. Content
/// tokens span their text. nullopt when the answer is no such list or every span is empty (it
/// cannot tell the two apart).
std::optional<std::vector<std::size_t>> tgi_added_positions(const nlohmann::json& answer);

/// The ids of a /tokenize answer in any dialect: {"tokens": [id, ...]},
/// {"tokens": [{"id", "piece"}, ...]} (llama.cpp with_pieces) or [{"id", ...}, ...] (TGI);
/// nullopt for any other shape.
std::optional<std::vector<tokenizer::TokenId>> token_ids_of(const nlohmann::json& answer);

}  // namespace bench::app
