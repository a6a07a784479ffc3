#include "bench/sim/tokenize_routes.hpp"

#include <nlohmann/json.hpp>

namespace bench::sim {

namespace {

using nlohmann::json;
using tokenizer::TokenId;

RouteAnswer error_answer(int status, std::string_view message) {
  return {status, json{{"error", {{"message", message}, {"code", status}}}}.dump()};
}

std::optional<json> parse_object(std::string_view body) {
  json parsed = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) return std::nullopt;
  return parsed;
}

const json* string_field(const json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? &*found : nullptr;
}

// A boolean field of the request; `otherwise` when it is absent or no boolean.
bool flag_or(const json& request, const char* key, bool otherwise) {
  const auto found = request.find(key);
  return found != request.end() && found->is_boolean() ? found->get<bool>() : otherwise;
}

// vLLM's prompt form adds the model's special tokens unless add_special_tokens is false (its
// TokenizeCompletionRequest's default is true), as its completions endpoint does.
RouteAnswer vllm_tokenize(const json& request, const PromptCounter& counter,
                          std::int64_t max_model_len) {
  std::vector<TokenId> tokens;
  if (const json* prompt = string_field(request, "prompt")) {
    const std::string& text = prompt->get_ref<const std::string&>();
    tokens = flag_or(request, "add_special_tokens", true) ? counter.encode_prompt(text)
                                                          : counter.encode(text);
  } else if (const auto messages = request.find("messages"); messages != request.end()) {
    auto encoded = counter.encode_chat(*messages);
    if (!encoded) return error_answer(400, "'messages' must be an array of {role, content}");
    tokens = std::move(*encoded);
  } else {
    return error_answer(400, "'prompt' or 'messages' is required");
  }
  return {200, json{{"count", tokens.size()},
                    {"max_model_len", max_model_len},
                    {"tokens", tokens},
                    {"token_strs", nullptr}}
                   .dump()};
}

// llama.cpp reads "content" and answers {"tokens": []} without it; it adds the model's BOS only
// with "add_special": true (default false), which its completions endpoint always adds.
RouteAnswer llamacpp_tokenize(const json& request, const PromptCounter& counter) {
  std::vector<TokenId> tokens;
  if (const json* content = string_field(request, "content")) {
    const std::string& text = content->get_ref<const std::string&>();
    tokens =
        flag_or(request, "add_special", false) ? counter.encode_prompt(text) : counter.encode(text);
  }
  return {200, json{{"tokens", tokens}}.dump()};
}

RouteAnswer llamacpp_apply_template(const json& request, const PromptCounter& counter) {
  const auto messages = request.find("messages");
  if (messages == request.end()) return error_answer(400, "'messages' is required");
  const std::optional<std::string> prompt = counter.render_chat(*messages);
  if (!prompt) return error_answer(400, "'messages' must be an array of {role, content}");
  return {200, json{{"prompt", *prompt}}.dump()};
}

// TGI's /tokenize takes a generate request and encodes its inputs with the model's special
// tokens unless "add_special_tokens" is false (a field defaulting to true; text-generation-
// inference router/src/server.rs tokenize, router/src/validation.rs). Each token comes with its
// text and span: the special tokens a tokenizer's post-processor adds have the empty span (0, 0)
// (Hugging Face tokenizers). The simulator keeps no offsets, so each content token gets a
// one-character span at its place: never empty, as a real content token's is not.
RouteAnswer tgi_tokenize(const json& request, const PromptCounter& counter) {
  const json* inputs = string_field(request, "inputs");
  if (inputs == nullptr) return error_answer(422, "missing field `inputs`");
  const std::string& text = inputs->get_ref<const std::string&>();
  const bool specials = flag_or(request, "add_special_tokens", true);
  const std::vector<TokenId> ids = specials ? counter.encode_prompt(text) : counter.encode(text);
  const std::size_t added = specials ? counter.added_special_tokens() : 0;
  json tokens = json::array();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::size_t start = i < added ? 0 : i - added;
    const std::size_t stop = i < added ? 0 : start + 1;
    tokens.push_back({{"id", ids[i]}, {"text", ""}, {"start", start}, {"stop", stop}});
  }
  return {200, tokens.dump()};
}

}  // namespace

std::string_view tokenize_dialect_name(TokenizeDialect dialect) {
  switch (dialect) {
    case TokenizeDialect::vllm: return "vllm";
    case TokenizeDialect::llamacpp: return "llamacpp";
    case TokenizeDialect::tgi: return "tgi";
    case TokenizeDialect::none: break;
  }
  return "none";
}

std::optional<TokenizeDialect> parse_tokenize_dialect(std::string_view name) {
  for (TokenizeDialect dialect : {TokenizeDialect::vllm, TokenizeDialect::llamacpp,
                                  TokenizeDialect::tgi, TokenizeDialect::none}) {
    if (tokenize_dialect_name(dialect) == name) return dialect;
  }
  return std::nullopt;
}

std::optional<RouteAnswer> answer_tokenize_route(std::string_view method, std::string_view path,
                                                 std::string_view body, TokenizeDialect dialect,
                                                 const PromptCounter& counter,
                                                 std::int64_t max_model_len) {
  const bool tokenize = path == "/tokenize";
  const bool apply_template = path == "/apply-template" && dialect == TokenizeDialect::llamacpp;
  if (dialect == TokenizeDialect::none || (!tokenize && !apply_template)) return std::nullopt;
  if (method != "POST") return error_answer(405, "use POST for " + std::string(path));
  const std::optional<json> request = parse_object(body);
  if (!request) return error_answer(400, "request body must be a JSON object");
  if (apply_template) return llamacpp_apply_template(*request, counter);
  switch (dialect) {
    case TokenizeDialect::llamacpp: return llamacpp_tokenize(*request, counter);
    case TokenizeDialect::tgi: return tgi_tokenize(*request, counter);
    default: return vllm_tokenize(*request, counter, max_model_len);
  }
}

}  // namespace bench::sim
