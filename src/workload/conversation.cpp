#include "bench/workload/conversation.hpp"

#include <algorithm>
#include <utility>

#include "bench/images/image_parts.hpp"
#include "bench/util/words.hpp"

namespace bench::workload {

using nlohmann::json;

void Conversation::add_system(std::string text) {
  messages_.push_back(Message{Role::system, std::move(text), {}, {}, {}});
}

void Conversation::add_user(std::string text, std::vector<std::string> image_urls) {
  messages_.push_back(Message{Role::user, std::move(text), {}, {}, std::move(image_urls)});
}

void Conversation::add_reply(std::string text, std::vector<ToolCall> tool_calls) {
  messages_.push_back(Message{Role::assistant, std::move(text), std::move(tool_calls), {}, {}});
}

void Conversation::add_tool_result(std::string tool_call_id, std::string text) {
  messages_.push_back(Message{Role::tool, std::move(text), {}, std::move(tool_call_id), {}});
}

namespace {

// OpenAI's chat API: an assistant message's tool calls, each with the id the tool message that
// answers it names.
json tool_calls_json(const std::vector<ToolCall>& calls) {
  json out = json::array();
  for (const ToolCall& call : calls) {
    out.push_back({{"id", call.id},
                   {"type", "function"},
                   {"function", {{"name", call.name}, {"arguments", call.arguments}}}});
  }
  return out;
}

// A user turn's content: its text alone, or the text then its images as image_url parts (the
// shape images/image_parts.hpp gives a single request's).
json user_content(const std::string& text, const std::vector<std::string>& image_urls) {
  if (image_urls.empty()) return text;
  json parts = json::array({{{"type", "text"}, {"text", text}}});
  for (const std::string& url : image_urls) parts.push_back(images::image_url_part(url));
  return parts;
}

}  // namespace

json Conversation::chat_messages() const {
  json messages = json::array();
  for (const Message& message : messages_) {
    switch (message.role) {
      case Role::system: messages.push_back({{"role", "system"}, {"content", message.text}}); break;
      case Role::user:
        messages.push_back(
            {{"role", "user"}, {"content", user_content(message.text, message.image_urls)}});
        break;
      case Role::assistant: {
        json reply = {{"role", "assistant"}};
        const bool calls_only = message.text.empty() && !message.tool_calls.empty();
        reply["content"] = calls_only ? json(nullptr) : json(message.text);
        if (!message.tool_calls.empty()) reply["tool_calls"] = tool_calls_json(message.tool_calls);
        messages.push_back(std::move(reply));
        break;
      }
      case Role::tool:
        messages.push_back(
            {{"role", "tool"}, {"tool_call_id", message.tool_call_id}, {"content", message.text}});
        break;
    }
  }
  return messages;
}

std::string Conversation::transcript() const {
  std::string text;
  for (const Message& message : messages_) {
    if (message.role != Role::assistant && !text.empty()) text += "\n\n";
    text += message.text;
  }
  return text;
}

std::size_t Conversation::user_turns() const {
  return static_cast<std::size_t>(std::count_if(
      messages_.begin(), messages_.end(), [](const Message& m) { return m.role == Role::user; }));
}

std::int64_t Conversation::words() const {
  std::int64_t words = 0;
  for (const Message& message : messages_) {
    words += util::count_words(message.text);
    for (const ToolCall& call : message.tool_calls) {
      words += util::count_words(call.name) + util::count_words(call.arguments);
    }
  }
  return words;
}

const std::vector<ToolCall>& Conversation::pending_tool_calls() const {
  static const std::vector<ToolCall> kNone;
  if (messages_.empty() || messages_.back().role != Role::assistant) return kNone;
  return messages_.back().tool_calls;
}

}  // namespace bench::workload
