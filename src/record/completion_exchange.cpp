#include "bench/record/completion_exchange.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "bench/protocol/openai.hpp"
#include "bench/record/http_framing.hpp"
#include "bench/sse/parser.hpp"
#include "bench/util/text.hpp"

namespace bench::record {

namespace {

using nlohmann::json;

// What a response said, however it came.
struct Reply {
  std::optional<std::int64_t> prompt_tokens, completion_tokens;
  std::string finish_reason;
  std::string text;
  bool reasoning = false, answer = false, tool_call = false;
};

// Each data payload of an event stream, read as bench's client reads it (the latest usage wins:
// vLLM's continuous usage stats send a running count on every chunk).
class StreamSink final : public sse::Sink {
 public:
  explicit StreamSink(Reply& reply) : reply_(reply) {}
  bool on_event(const sse::Event& event) override {
    const protocol::Chunk chunk = protocol::interpret_chunk(event.data);
    if (chunk.kind != protocol::Chunk::Kind::data) return true;
    if (chunk.prompt_tokens) reply_.prompt_tokens = chunk.prompt_tokens;
    if (chunk.completion_tokens) reply_.completion_tokens = chunk.completion_tokens;
    if (!chunk.finish_reason.empty()) reply_.finish_reason = chunk.finish_reason;
    reply_.reasoning = reply_.reasoning || chunk.has_reasoning();
    reply_.answer = reply_.answer || chunk.has_answer();
    reply_.tool_call = reply_.tool_call || chunk.has_tool_call();
    for (const std::string_view piece :
         {std::string_view(chunk.text), std::string_view(chunk.tool_call_text)}) {
      if (piece.empty()) continue;
      reply_.text += ' ';
      reply_.text += piece;
    }
    return true;
  }

 private:
  Reply& reply_;
};

std::string string_at(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<std::int64_t> count_at(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<std::int64_t>();
}

void add_text(const json& object, const char* key, Reply& reply, bool& flag) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) return;
  flag = true;
  reply.text += ' ';
  reply.text += it->get_ref<const std::string&>();
}

// A whole (not streamed) response: {"choices": [{"message": {...}} or {"text"}], "usage"}.
std::optional<Reply> read_whole(const std::string& body) {
  const json document = json::parse(body, nullptr, false);
  if (!document.is_object()) return std::nullopt;
  Reply reply;
  if (const auto usage = document.find("usage"); usage != document.end() && usage->is_object()) {
    reply.prompt_tokens = count_at(*usage, "prompt_tokens");
    reply.completion_tokens = count_at(*usage, "completion_tokens");
  }
  const auto choices = document.find("choices");
  if (choices == document.end() || !choices->is_array() || choices->empty() ||
      !(*choices)[0].is_object()) {
    return reply;
  }
  const json& choice = (*choices)[0];
  if (const auto reason = choice.find("finish_reason");
      reason != choice.end() && reason->is_string()) {
    reply.finish_reason = reason->get<std::string>();
  }
  add_text(choice, "text", reply, reply.answer);
  const auto message = choice.find("message");
  if (message == choice.end() || !message->is_object()) return reply;
  add_text(*message, "reasoning_content", reply, reply.reasoning);
  add_text(*message, "reasoning", reply, reply.reasoning);
  add_text(*message, "content", reply, reply.answer);
  const auto calls = message->find("tool_calls");
  if (calls == message->end() || !calls->is_array()) return reply;
  for (const json& call : *calls) {
    const auto function = call.is_object() ? call.find("function") : call.end();
    if (function == call.end() || !function->is_object()) continue;
    add_text(*function, "name", reply, reply.tool_call);
    add_text(*function, "arguments", reply, reply.tool_call);
  }
  return reply;
}

std::optional<Reply> read_reply(const wire::Exchange& exchange) {
  const std::optional<std::string> body = response_body(exchange.response);
  if (!body) return std::nullopt;
  const std::string_view head(
      exchange.response.data(),
      std::min(exchange.response.size(), exchange.response.find("\r\n\r\n")));
  const auto type = header_value(head, "content-type");
  if (!type || !util::starts_with_ignoring_case(*type, "text/event-stream")) {
    return read_whole(*body);
  }
  Reply reply;
  StreamSink sink(reply);
  sse::Parser parser;
  parser.feed(*body, sink);
  return reply;
}

// The request's prompt as messages; else why it has none.
std::variant<json, std::string> prompt_messages(const json& request, bool chat) {
  if (chat) {
    const auto messages = request.find("messages");
    if (messages == request.end() || !messages->is_array() || messages->empty()) {
      return std::string("no \"messages\" list");
    }
    for (const json& message : *messages) {
      if (!message.is_object()) return std::string("a message is not an object");
    }
    return *messages;
  }
  const auto prompt = request.find("prompt");
  if (prompt == request.end() || !prompt->is_string()) {
    return std::string("\"prompt\" is not a string (token ids and lists are not read)");
  }
  return json::array({json{{"role", "user"}, {"content", *prompt}}});
}

}  // namespace

std::variant<Completion, std::string> read_completion(const wire::Exchange& exchange) {
  const wire::Shape& shape = exchange.shape;
  const bool chat = shape.path == "/v1/chat/completions";
  if (shape.method != "POST" || (!chat && shape.path != "/v1/completions")) {
    return fmt::format("{}: not a completion", wire::describe(shape));
  }
  if (exchange.status != 200) return fmt::format("status {}", exchange.status);
  const json request = json::parse(exchange.request_body, nullptr, false);
  if (!request.is_object()) return std::string("the request body is not a JSON object");
  auto messages = prompt_messages(request, chat);
  if (auto* why = std::get_if<std::string>(&messages)) return std::move(*why);
  const std::optional<Reply> reply = read_reply(exchange);
  if (!reply) return std::string("the response ends before its body does");
  Completion completion;
  completion.model = string_at(request, "model");
  completion.streamed = shape.stream;
  completion.messages = std::move(std::get<json>(messages));
  completion.answers_tool = string_at(completion.messages.back(), "role") == "tool";
  completion.prompt_tokens = reply->prompt_tokens;
  completion.completion_tokens = reply->completion_tokens;
  completion.finish_reason = reply->finish_reason;
  completion.reply_text = reply->text;
  completion.replied_reasoning = reply->reasoning;
  completion.replied_text = reply->answer;
  completion.replied_tool_call = reply->tool_call;
  return completion;
}

}  // namespace bench::record
