#include "bench/app/server/token_setup.hpp"

#include "bench/app/server/server_tokenizer.hpp"
#include "bench/app/server/target.hpp"
#include "bench/workload/prompt.hpp"

namespace bench::app {

namespace {

// The content of the measuring chat: plain words, no markup a template could treat apart.
constexpr const char* kProbeContent = "Hello world, how are you today?";

}  // namespace

std::shared_ptr<const tokenizer::Tokenizer> open_server_tokenizer(const TokenServer& server) {
  TokenizerServer where;
  where.base_url = server.base_url;
  where.headers = server.headers;
  where.engine = server.engine;
  where.model = server.request.model;
  where.redactor = server.redactor;
  return ServerTokenizer::open(std::move(where));
}

std::optional<TemplateOverhead> measure_template_overhead(const TokenServer& server,
                                                          const tokenizer::Tokenizer& tokenizer) {
  workload::Prompt prompt;
  prompt.text = kProbeContent;
  const nlohmann::json messages = workload::chat_messages(prompt);
  try {
    const auto content = static_cast<std::int64_t>(tokenizer.count(prompt.text));
    if (const auto* own = dynamic_cast<const ServerTokenizer*>(&tokenizer)) {
      if (const std::optional<std::size_t> chat = own->count_chat(messages)) {
        return TemplateOverhead{static_cast<std::int64_t>(*chat) - content,
                                "server /tokenize on a one-message chat"};
      }
    }
    const std::optional<std::int64_t> served = probe_prompt_tokens(
        server.url, *server.headers, server.request, messages, server.engine, *server.redactor);
    if (!served) return std::nullopt;
    return TemplateOverhead{*served - content, "one probe request's usage.prompt_tokens"};
  } catch (const tokenizer::TokenizerError& error) {
    throw RunError(std::string("--tokenizer: ") + error.what());
  }
}

}  // namespace bench::app
