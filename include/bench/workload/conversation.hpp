#pragma once
// A session's history (--multi-turn): its user turns, the replies the model streamed for them,
// and, in an agent session, the tool calls a reply made and the tool results that answer them.
// Each turn sends it whole, so the prompt of turn k starts with the prompt of turn k-1 and its
// reply: a prefix a server's cache can hold.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench::workload {

/// One tool call of a reply, as the model streamed it (OpenAI's chat API: an assistant
/// message's "tool_calls" entry, {"id", "type": "function", "function": {"name", "arguments"}}).
struct ToolCall {
  std::string id;
  std::string name;
  std::string arguments;  // the JSON text the model generated, as streamed
  bool operator==(const ToolCall&) const = default;
};

class Conversation {
 public:
  /// The system prompt the conversation starts with, sent first on every turn (call it before
  /// the first user turn).
  void add_system(std::string text);
  /// A user turn: its text, and the data URLs of any images sent with it (--images-per-request),
  /// after the text as chat's image_url parts; they stay in the history, as a chat client's do.
  void add_user(std::string text, std::vector<std::string> image_urls = {});
  /// The model's reply to the last turn: its answer text and the tool calls it made, if any.
  void add_reply(std::string text, std::vector<ToolCall> tool_calls = {});
  /// A tool's result for the call `tool_call_id` of the last reply, as a "tool" message.
  void add_tool_result(std::string tool_call_id, std::string text);

  /// /v1/chat/completions: [{"role":"user",...},{"role":"assistant","content",["tool_calls"]},
  /// {"role":"tool","tool_call_id",...},...]. A reply made only of tool calls has "content":
  /// null, as OpenAI's API sends and takes it.
  nlohmann::json chat_messages() const;
  /// /v1/completions: each user turn followed by its reply as the model continued it, then a
  /// blank line before the next user turn: "u0" + "r0" + "\n\n" + "u1" + ... So the prompt of
  /// turn k starts with the prompt of turn k-1 followed by its reply, a prefix a cache can hold.
  std::string transcript() const;

  std::size_t user_turns() const;
  /// Words of every turn, reply, tool call (its name and arguments) and tool result (bench's
  /// length unit without a tokenizer).
  std::int64_t words() const;
  /// The tool calls of the last message when it is a reply that made some; empty otherwise.
  const std::vector<ToolCall>& pending_tool_calls() const;

 private:
  enum class Role { system, user, assistant, tool };
  struct Message {
    Role role = Role::user;
    std::string text;
    std::vector<ToolCall> tool_calls;     // assistant
    std::string tool_call_id;             // tool
    std::vector<std::string> image_urls;  // user: images after its text
  };
  std::vector<Message> messages_;
};

}  // namespace bench::workload
