#include "bench/app/server/server_tokenizer.hpp"

#include <fmt/format.h>

#include "bench/app/point/early_stop.hpp"
#include "bench/app/server/startup_fetch.hpp"
#include "bench/app/server/target.hpp"
#include "bench/engine/fetch.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/util/url.hpp"

namespace bench::app {

namespace {

using nlohmann::json;
using tokenizer::TokenId;
using tokenizer::TokenizerError;

constexpr std::string_view kProbeText = "Hello world";

struct Answer {
  long http_status = 0;
  json body;            // discarded when not JSON
  std::string problem;  // transport failure or the server's error message; empty when 200
  engine::TransferEnd end;
};

Answer exchange(const TokenizerServer& server, std::string_view path, const json& body) {
  engine::EngineOptions single = server.engine;
  single.concurrency = 1;
  const std::string url = util::url_join(server.base_url, path);
  const engine::FetchResult result = startup_fetch(url, *server.headers, body.dump(), single);
  Answer answer;
  answer.http_status = result.http_status;
  answer.end = result.end;
  if (result.end.error != metrics::ErrorClass::none) {
    answer.problem = result.end.message;
  } else if (result.http_status != 200) {
    answer.problem = protocol::error_message_from_body(result.body);
  }
  answer.body = json::parse(result.body, nullptr, /*allow_exceptions=*/false);
  if (server.redactor != nullptr) server.redactor->redact_in_place(answer.problem);
  return answer;
}

bool has_ids(const Answer& answer) {
  const auto ids = token_ids_of(answer.body);
  return answer.http_status == 200 && ids && !ids->empty();
}

// Which dialect answers: vLLM's body first (it carries a count), then llama.cpp's (which
// answers {"tokens": []} to a body without "content"), then TGI's.
std::optional<ServerDialect> detect(const TokenizerServer& server, std::string& last_problem) {
  const std::string text(kProbeText);
  const Answer vllm =
      exchange(server, "/tokenize",
               {{"model", server.model}, {"prompt", text}, {"add_special_tokens", false}});
  const std::string shown =
      util::url_with_secrets_hidden(util::url_join(server.base_url, "/tokenize"));
  if (vllm.http_status == 0) {
    throw RunError(failed_exchange_text("POST", shown, vllm.end, vllm.problem));
  }
  if (const auto refusal = describe_refusal(vllm.http_status, vllm.problem)) {
    throw RunError(fmt::format("POST {} answered {}", shown, *refusal));
  }
  if (vllm.http_status == 404 || vllm.http_status == 405) {
    throw RunError(fmt::format(
        "--tokenizer server: POST {} answered HTTP {}: the server has no /tokenize (vLLM, "
        "SGLang, llama.cpp and TGI have one); give a tokenizer.json with --tokenizer PATH",
        shown, vllm.http_status));
  }
  if (has_ids(vllm) && vllm.body.is_object() && vllm.body.contains("count")) {
    return ServerDialect::vllm;
  }
  const Answer llamacpp = exchange(server, "/tokenize", {{"content", text}});
  if (has_ids(llamacpp) && llamacpp.body.is_object()) return ServerDialect::llamacpp;
  const Answer tgi = exchange(server, "/tokenize", {{"inputs", text}});
  if (has_ids(tgi) && tgi.body.is_array()) return ServerDialect::tgi;
  last_problem =
      fmt::format("HTTP {}{}", tgi.http_status, tgi.problem.empty() ? "" : ": " + tgi.problem);
  return std::nullopt;
}

// The special tokens the server adds to a prompt: the count of kProbeText's tokens with them
// asked for, less without. The server's completions endpoint adds them (vLLM encodes a prompt
// with add_special_tokens=True, llama.cpp its model's BOS, TGI its tokenizer's post-processor's),
// bench's prompts are content only, so a run's length check expects them beside the prompt
// (issue: a llama-2 model's BOS read as a length mismatch). TGI's are read off one answer: the
// tokens with an empty span at its ends (tgi_added_positions), so a version that ignores
// "add_special_tokens" is measured too.
std::optional<std::size_t> measure_added_special_tokens(const TokenizerServer& server,
                                                        ServerDialect dialect) {
  const std::string text(kProbeText);
  json with;
  json without;
  switch (dialect) {
    case ServerDialect::vllm:
      with = {{"model", server.model}, {"prompt", text}, {"add_special_tokens", true}};
      without = {{"model", server.model}, {"prompt", text}, {"add_special_tokens", false}};
      break;
    case ServerDialect::llamacpp:
      with = {{"content", text}, {"add_special", true}};
      without = {{"content", text}, {"add_special", false}};
      break;
    case ServerDialect::tgi: {
      const Answer added = exchange(server, "/tokenize", {{"inputs", text}});
      if (!has_ids(added)) return std::nullopt;
      const auto positions = tgi_added_positions(added.body);
      if (!positions) return std::nullopt;
      return positions->size();
    }
  }
  const Answer added = exchange(server, "/tokenize", with);
  const Answer content = exchange(server, "/tokenize", without);
  if (!has_ids(added) || !has_ids(content)) return std::nullopt;
  const std::size_t with_count = token_ids_of(added.body)->size();
  const std::size_t content_count = token_ids_of(content.body)->size();
  if (with_count < content_count) return std::nullopt;
  return with_count - content_count;
}

bool empty_span(const json& token) {
  if (!token.is_object()) return false;
  const auto start = token.find("start");
  const auto stop = token.find("stop");
  return start != token.end() && stop != token.end() && start->is_number_unsigned() &&
         stop->is_number_unsigned() && *start == *stop;
}

}  // namespace

std::string_view server_dialect_name(ServerDialect dialect) {
  switch (dialect) {
    case ServerDialect::vllm: return "vLLM";
    case ServerDialect::llamacpp: return "llama.cpp";
    case ServerDialect::tgi: break;
  }
  return "TGI";
}

std::optional<std::vector<std::size_t>> tgi_added_positions(const json& answer) {
  if (!answer.is_array() || answer.empty()) return std::nullopt;
  std::size_t head = 0;
  while (head < answer.size() && empty_span(answer[head])) ++head;
  if (head == answer.size()) return std::nullopt;  // no spans to tell specials from content
  std::size_t tail = answer.size();
  while (tail > head && empty_span(answer[tail - 1])) --tail;
  std::vector<std::size_t> positions;
  for (std::size_t i = 0; i < head; ++i) positions.push_back(i);
  for (std::size_t i = tail; i < answer.size(); ++i) positions.push_back(i);
  return positions;
}

std::optional<std::vector<TokenId>> token_ids_of(const json& answer) {
  const json* list = &answer;
  if (answer.is_object()) {
    const auto tokens = answer.find("tokens");
    if (tokens == answer.end()) return std::nullopt;
    list = &*tokens;
  }
  if (!list->is_array()) return std::nullopt;
  std::vector<TokenId> ids;
  ids.reserve(list->size());
  for (const json& token : *list) {
    const json* id = &token;
    if (token.is_object()) {
      const auto found = token.find("id");
      if (found == token.end()) return std::nullopt;
      id = &*found;
    }
    if (!id->is_number_integer()) return std::nullopt;
    ids.push_back(id->get<TokenId>());
  }
  return ids;
}

std::unique_ptr<ServerTokenizer> ServerTokenizer::open(TokenizerServer server) {
  std::string problem;
  const std::optional<ServerDialect> dialect = detect(server, problem);
  if (!dialect) {
    throw RunError(fmt::format(
        "--tokenizer server: POST {}/tokenize answered in no dialect bench knows (vLLM, "
        "llama.cpp, TGI): {}",
        util::url_with_secrets_hidden(server.base_url), problem));
  }
  std::unique_ptr<ServerTokenizer> opened(new ServerTokenizer(std::move(server), *dialect));
  opened->added_special_tokens_ = measure_added_special_tokens(opened->server_, *dialect);
  return opened;
}

ServerTokenizer::ServerTokenizer(TokenizerServer server, ServerDialect dialect)
    : server_(std::move(server)),
      dialect_(dialect),
      description_(fmt::format("server /tokenize ({} dialect)", server_dialect_name(dialect))) {}

json ServerTokenizer::post(std::string_view path, const json& body) const {
  requests_sent_.fetch_add(1, std::memory_order_relaxed);
  const Answer answer = exchange(server_, path, body);
  if (answer.http_status != 200 || answer.body.is_discarded()) {
    throw TokenizerError(fmt::format(
        "POST {}{} answered HTTP {}: {}", util::url_with_secrets_hidden(server_.base_url), path,
        answer.http_status, answer.problem.empty() ? "not JSON" : answer.problem));
  }
  return answer.body;
}

std::vector<TokenId> ServerTokenizer::ids_in(const json& answer) const {
  std::optional<std::vector<TokenId>> ids = token_ids_of(answer);
  if (!ids) {
    throw TokenizerError(fmt::format("POST {}/tokenize answered without token ids",
                                     util::url_with_secrets_hidden(server_.base_url)));
  }
  return std::move(*ids);
}

std::vector<TokenId> ServerTokenizer::tokenize(const json& body) const {
  return ids_in(post("/tokenize", body));
}

std::vector<TokenId> ServerTokenizer::encode(std::string_view text) const {
  const std::string content(text);
  switch (dialect_) {
    case ServerDialect::vllm:
      return tokenize(
          {{"model", server_.model}, {"prompt", content}, {"add_special_tokens", false}});
    case ServerDialect::llamacpp: return tokenize({{"content", content}, {"add_special", false}});
    case ServerDialect::tgi: break;
  }
  return tgi_content(content);
}

// TGI before its generate request had "add_special_tokens" ignores the field and adds them
// anyway: whatever tgi_added_positions finds is taken off.
std::vector<TokenId> ServerTokenizer::tgi_content(const std::string& text) const {
  const json answer = post("/tokenize", {{"inputs", text}, {"add_special_tokens", false}});
  std::vector<TokenId> ids = ids_in(answer);
  const std::vector<std::size_t> added =
      tgi_added_positions(answer).value_or(std::vector<std::size_t>{});
  for (auto at = added.rbegin(); at != added.rend(); ++at) ids.erase(ids.begin() + *at);
  return ids;
}

std::string ServerTokenizer::decode(const std::vector<TokenId>& ids) const {
  const char* key = nullptr;
  json answer;
  switch (dialect_) {
    case ServerDialect::vllm:
      answer = post("/detokenize", {{"model", server_.model}, {"tokens", ids}});
      key = "prompt";
      break;
    case ServerDialect::llamacpp:
      answer = post("/detokenize", {{"tokens", ids}});
      key = "content";
      break;
    case ServerDialect::tgi: throw TokenizerError("TGI has no /detokenize");
  }
  const auto text = answer.find(key);
  if (text == answer.end() || !text->is_string()) {
    throw TokenizerError(fmt::format("POST /detokenize answered without \"{}\"", key));
  }
  return text->get<std::string>();
}

std::optional<std::size_t> ServerTokenizer::count_chat(const json& messages) const {
  switch (dialect_) {
    case ServerDialect::vllm:
      return tokenize({{"model", server_.model},
                       {"messages", messages},
                       {"add_generation_prompt", true}})
          .size();
    case ServerDialect::llamacpp: {
      const json rendered = post("/apply-template", {{"messages", messages}});
      const auto prompt = rendered.find("prompt");
      if (prompt == rendered.end() || !prompt->is_string()) {
        throw TokenizerError("POST /apply-template answered without \"prompt\"");
      }
      return tokenize({{"content", *prompt}, {"add_special", true}}).size();
    }
    case ServerDialect::tgi: break;
  }
  return std::nullopt;
}

}  // namespace bench::app
