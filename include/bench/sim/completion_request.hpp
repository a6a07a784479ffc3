#pragma once
// What the embedded server reads from a POST /v1/completions or /v1/chat/completions body.
//
// Prompt tokens are counted by the server's PromptCounter (prompt_counter.hpp): by default the
// number of whitespace-separated words of the prompt (chat: of every message's text content,
// added up, plus the chat template's tokens when one is set; a prompt given as token ids counts
// one token per id). bench's random prompts are made of words, so the count it asked for and the
// count the server reports agree.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bench/answer_check/known_answers.hpp"
#include "bench/sim/prompt_counter.hpp"

namespace bench::sim {

struct CompletionRequest {
  bool chat = false;                       // /v1/chat/completions
  std::string model;                       // as sent; the simulator answers for any name
  bool stream = false;                     // "stream": true
  bool include_usage = false;              // stream_options.include_usage
  bool continuous_usage = false;           // stream_options.continuous_usage_stats (vLLM)
  std::optional<std::int64_t> max_tokens;  // max_tokens, or max_completion_tokens
  bool ignore_eos = false;                 // "ignore_eos": true (vLLM, SGLang, llama.cpp)
  std::int64_t prompt_tokens = 0;  // by the word rule above, plus images' (image_tokens.hpp)
  std::int64_t image_count = 0;    // chat: image_url parts, each a valid PNG or JPEG
  // FNV-1a 64 of the prompt as sent: the "prompt" string (other forms: their JSON), or the
  // "messages" array's JSON. For the truth log, so tests can see which prompts arrived.
  std::uint64_t prompt_hash = 0;
  // Chat: FNV-1a 64 of the last "assistant" message's content string, so a multi-turn test
  // can see that a turn carried the reply of the turn before verbatim; nullopt without one.
  std::optional<std::uint64_t> last_assistant_hash;
  // Chat with "tools" (OpenAI function tools): the function a tool call names (tool_choice's
  // named function, else the first tool's), empty without tools; and what tool_choice asks:
  // "auto" (or absent), "none" (never call), "required" or a named function (always call).
  std::string tool_name;
  enum class ToolChoice { auto_choice, none, required } tool_choice = ToolChoice::auto_choice;
  // One of the answer check's known-answer prompts (answer_check/known_answers.hpp), sent as
  // the whole prompt (completions) or as the one user message (chat); null for any other.
  const answer_check::KnownAnswerPrompt* known_prompt = nullptr;
};

struct ParsedCompletionRequest {
  std::optional<CompletionRequest> request;  // empty when the body was refused
  std::string error;                         // why, for a 400 {"error": ...} body
};

ParsedCompletionRequest parse_completion_request(std::string_view body, bool chat,
                                                 const PromptCounter& counter);
/// The same with the word rule and no chat template.
ParsedCompletionRequest parse_completion_request(std::string_view body, bool chat);

}  // namespace bench::sim
