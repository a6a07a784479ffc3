#include "bench/sim/completion_request.hpp"

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/image_tokens.hpp"
#include "bench/util/fnv1a.hpp"

namespace bench::sim {

namespace {

using nlohmann::json;

// A prompt: a string, an array of strings, or an array of token ids (OpenAI completions). Text
// gets the tokenizer's special tokens (BOS) as a server encodes it; ids are taken as given.
std::optional<std::int64_t> prompt_length(const json& prompt, const PromptCounter& counter) {
  if (prompt.is_string()) return counter.count_prompt(prompt.get_ref<const std::string&>());
  if (!prompt.is_array()) return std::nullopt;
  std::int64_t tokens = 0;
  for (const json& part : prompt) {
    if (part.is_string()) {
      tokens += counter.count_prompt(part.get_ref<const std::string&>());
    } else if (part.is_number_integer()) {
      ++tokens;
    } else {
      return std::nullopt;
    }
  }
  return tokens;
}

ParsedCompletionRequest refuse(std::string message) { return {std::nullopt, std::move(message)}; }

// The ids of an assistant message's "tool_calls" (those that are strings).
std::vector<std::string> tool_call_ids(const json& message) {
  std::vector<std::string> ids;
  const auto calls = message.find("tool_calls");
  if (calls == message.end() || !calls->is_array()) return ids;
  for (const json& call : *calls) {
    const auto id = call.is_object() ? call.find("id") : call.end();
    if (call.is_object() && id != call.end() && id->is_string())
      ids.push_back(id->get<std::string>());
  }
  return ids;
}

// OpenAI's rules for tool messages, with its 400 wording: each "tool" message answers a call of
// the assistant message before it (by "tool_call_id"), and every call of that message is
// answered before the history goes on. A history an agent got wrong fails here, as it would
// there. vLLM leaves this to the chat template; the simulator holds bench to the strict rule.
std::optional<std::string> check_tool_messages(const json& messages) {
  std::vector<std::string> unanswered;  // of the last assistant message with calls
  bool answering = false;               // the messages since that assistant message are tools
  for (const json& message : messages) {
    const auto role = message.find("role");
    const bool tool = role != message.end() && *role == "tool";
    if (tool) {
      const auto id = message.find("tool_call_id");
      const auto found =
          id != message.end() && id->is_string()
              ? std::find(unanswered.begin(), unanswered.end(), id->get<std::string>())
              : unanswered.end();
      if (!answering || found == unanswered.end()) {
        return "Invalid parameter: messages with role 'tool' must be a response to a preceeding "
               "message with 'tool_calls'.";
      }
      unanswered.erase(found);
      continue;
    }
    if (!unanswered.empty()) {
      return "An assistant message with 'tool_calls' must be followed by tool messages "
             "responding to each 'tool_call_id'. The following tool_call_ids did not have "
             "response messages: " +
             unanswered.front();
    }
    unanswered = tool_call_ids(message);
    answering = !unanswered.empty();
  }
  return std::nullopt;
}

// A boolean field; anything but true (absent, null, another type) reads as false.
bool flag(const json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_boolean() && found->get<bool>();
}

// The known-answer prompt a chat of one user message with string content asks; null otherwise.
const answer_check::KnownAnswerPrompt* known_chat_prompt(const json& messages) {
  if (messages.size() != 1) return nullptr;
  const auto role = messages[0].find("role");
  const auto content = messages[0].find("content");
  if (role == messages[0].end() || *role != "user" || content == messages[0].end() ||
      !content->is_string()) {
    return nullptr;
  }
  return answer_check::find_known_answer_prompt(content->get_ref<const std::string&>(), true);
}

std::uint64_t prompt_hash(std::string_view prompt) {
  util::Fnv1a64 hash;
  hash.add(prompt);
  return hash.value();
}

}  // namespace

ParsedCompletionRequest parse_completion_request(std::string_view body, bool chat) {
  static const PromptCounter word_rule(nullptr, ChatTemplate::none);
  return parse_completion_request(body, chat, word_rule);
}

namespace {

// "tools": [{"type": "function", "function": {"name": ...}}], "tool_choice": "auto" | "none" |
// "required" | {"type": "function", "function": {"name": ...}} (OpenAI's chat API reference).
// Returns an error for a named tool_choice that is no tool of the request, as vLLM refuses it.
std::optional<std::string> read_tools(const json& parsed, CompletionRequest& request) {
  const auto tools = parsed.find("tools");
  if (tools == parsed.end() || !tools->is_array() || tools->empty()) return std::nullopt;
  std::vector<std::string> names;
  for (const json& tool : *tools) {
    const json* function =
        tool.is_object() && tool.contains("function") ? &tool["function"] : nullptr;
    if (function == nullptr || !function->is_object() || !function->contains("name") ||
        !(*function)["name"].is_string()) {
      return "every tool must be {\"type\": \"function\", \"function\": {\"name\": ...}}";
    }
    names.push_back((*function)["name"].get<std::string>());
  }
  request.tool_name = names.front();
  const auto choice = parsed.find("tool_choice");
  if (choice == parsed.end() || choice->is_null() || *choice == "auto") return std::nullopt;
  if (*choice == "none") {
    request.tool_choice = CompletionRequest::ToolChoice::none;
  } else if (*choice == "required") {
    request.tool_choice = CompletionRequest::ToolChoice::required;
  } else if (choice->is_object() && choice->contains("function") &&
             (*choice)["function"].is_object() && (*choice)["function"].contains("name") &&
             (*choice)["function"]["name"].is_string()) {
    const std::string name = (*choice)["function"]["name"].get<std::string>();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      return "tool_choice names '" + name + "', which is not one of the tools";
    }
    request.tool_name = name;
    request.tool_choice = CompletionRequest::ToolChoice::required;
  } else {
    return std::string(
        "'tool_choice' must be \"auto\", \"none\", \"required\" or a named "
        "function");
  }
  return std::nullopt;
}

// A chat request's messages into `request`: their token count (text by the counter, images by
// their size), hashes and the answer check's prompt. The refusal's text otherwise.
std::optional<std::string> read_messages(const json& parsed, const PromptCounter& counter,
                                         CompletionRequest& request) {
  const auto messages = parsed.find("messages");
  if (messages == parsed.end() || !messages->is_array() || messages->empty()) {
    return "'messages' must be a non-empty array";
  }
  for (const json& message : *messages) {
    if (!message.is_object()) return "every message must be an object";
  }
  if (auto refusal = check_tool_messages(*messages)) return refusal;
  const std::optional<std::int64_t> length = counter.count_chat(*messages);
  if (!length) return "message 'content' must be a string or an array of parts";
  const std::variant<ImageTokens, std::string> image_tokens =
      count_image_tokens(*messages, counter.image_patch_px());
  if (const std::string* refusal = std::get_if<std::string>(&image_tokens)) {
    return "Invalid image: " + *refusal;
  }
  request.prompt_tokens = *length + std::get<ImageTokens>(image_tokens).tokens;
  request.image_count = std::get<ImageTokens>(image_tokens).images;
  request.prompt_hash = prompt_hash(messages->dump());
  request.known_prompt = known_chat_prompt(*messages);
  for (const json& message : *messages) {
    const auto role = message.find("role");
    const auto content = message.find("content");
    if (role != message.end() && *role == "assistant" && content != message.end() &&
        content->is_string()) {
      request.last_assistant_hash = prompt_hash(content->get_ref<const std::string&>());
    }
  }
  return std::nullopt;
}

// A completions request's "prompt" into `request`: its token count, hash and the answer
// check's prompt. The refusal's text otherwise.
std::optional<std::string> read_prompt(const json& parsed, const PromptCounter& counter,
                                       CompletionRequest& request) {
  const auto prompt = parsed.find("prompt");
  if (prompt == parsed.end()) return "'prompt' is required";
  const std::optional<std::int64_t> length = prompt_length(*prompt, counter);
  if (!length) return "'prompt' must be a string, or an array of strings or token ids";
  request.prompt_tokens = *length;
  request.prompt_hash =
      prompt_hash(prompt->is_string() ? prompt->get_ref<const std::string&>() : prompt->dump());
  if (prompt->is_string()) {
    request.known_prompt =
        answer_check::find_known_answer_prompt(prompt->get_ref<const std::string&>(), false);
  }
  return std::nullopt;
}

// How to answer: max_tokens, n, stream and its options, ignore_eos. The refusal's text otherwise.
std::optional<std::string> read_answer_options(const json& parsed, CompletionRequest& request) {
  for (const char* key : {"max_tokens", "max_completion_tokens"}) {
    const auto found = parsed.find(key);
    if (found == parsed.end() || found->is_null()) continue;
    if (!found->is_number_integer() || found->get<std::int64_t>() < 1) {
      return std::string("'") + key + "' must be a positive integer";
    }
    request.max_tokens = found->get<std::int64_t>();
    break;
  }
  if (const auto n = parsed.find("n"); n != parsed.end() && !n->is_null() && *n != 1) {
    return "Unsupported param: n (only n = 1 is served)";
  }
  if (const auto stream = parsed.find("stream"); stream != parsed.end() && !stream->is_null()) {
    if (!stream->is_boolean()) return "'stream' must be a boolean";
    request.stream = stream->get<bool>();
  }
  if (const auto options = parsed.find("stream_options");
      options != parsed.end() && options->is_object()) {
    request.include_usage = flag(*options, "include_usage");
    request.continuous_usage = flag(*options, "continuous_usage_stats");
  }
  request.ignore_eos = flag(parsed, "ignore_eos");
  return std::nullopt;
}

}  // namespace

ParsedCompletionRequest parse_completion_request(std::string_view body, bool chat,
                                                 const PromptCounter& counter) {
  const json parsed = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return refuse("request body is not valid JSON");
  if (!parsed.is_object()) return refuse("request body must be a JSON object");

  CompletionRequest request;
  request.chat = chat;
  if (const auto model = parsed.find("model"); model != parsed.end() && model->is_string()) {
    request.model = model->get<std::string>();
  }
  auto refusal =
      chat ? read_messages(parsed, counter, request) : read_prompt(parsed, counter, request);
  if (!refusal) refusal = read_answer_options(parsed, request);
  if (!refusal && chat) refusal = read_tools(parsed, request);
  if (refusal) return refuse(std::move(*refusal));
  return {request, {}};
}

}  // namespace bench::sim
