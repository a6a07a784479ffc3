#include "bench/protocol/chunk_scanner.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

#include "json_cursor.hpp"
#include "tool_call_scan.hpp"

namespace bench::protocol {

namespace {

using json_scan::append_decoded;
using json_scan::assign_decoded;
using json_scan::is;
using json_scan::JsonCursor;
using json_scan::RawString;
using json_scan::ToolCallFragments;

// What the scan found, as views into the payload; turned into a Chunk once the whole payload
// has proved to be valid JSON.
struct Found {
  std::optional<RawString> id;
  bool has_choice = false;  // choices[0] is an object
  std::optional<RawString> text, reasoning_content, reasoning, content, finish_reason;
  ToolCallFragments tool_calls;  // of delta.tool_calls
  bool has_usage = false;        // usage is an object
  std::optional<std::int64_t> prompt_tokens, completion_tokens;
  std::optional<std::int64_t> cached_tokens;  // usage.prompt_tokens_details.cached_tokens
  // usage.completion_tokens_details.reasoning_tokens
  std::optional<std::int64_t> reasoning_tokens;
  std::optional<std::int64_t> timings_prompt_n, timings_cache_n;  // llama.cpp's timings
  bool has_error = false;                                         // a non-null "error"
  RawString error_message;
};

// One pass over the payload, reading the keys a Chunk holds on the JSON cursor. Every member
// function returns false to give up, at the first byte that is invalid JSON or merely unusual;
// the caller then asks the DOM path.
class Scanner : JsonCursor {
 public:
  explicit Scanner(std::string_view data) : JsonCursor(data) {}

  bool scan(Found& found) {
    skip_space();
    if (!at('{')) return false;
    if (!root_object(found)) return false;
    skip_space();
    return at_end();  // nlohmann's strict parse: nothing but whitespace after the value
  }

 private:
  // Keys of the objects the scanner reads, one bit each, to see repeats.
  enum Key : unsigned {
    kId = 1u << 0,
    kChoices = 1u << 1,
    kUsage = 1u << 2,
    kError = 1u << 3,
    kText = 1u << 4,
    kDelta = 1u << 5,
    kFinishReason = 1u << 6,
    kReasoningContent = 1u << 7,
    kReasoning = 1u << 8,
    kContent = 1u << 9,
    kPromptTokens = 1u << 10,
    kCompletionTokens = 1u << 11,
    kMessage = 1u << 12,
    kTimings = 1u << 13,
    kPromptTokensDetails = 1u << 14,
    kCachedTokens = 1u << 15,
    kPromptN = 1u << 16,
    kCacheN = 1u << 17,
    kCompletionTokensDetails = 1u << 18,
    kReasoningTokens = 1u << 19,
    kToolCalls = 1u << 20,
  };

  bool root_object(Found& found) {
    unsigned seen = 0;
    return object(1, [&](const RawString& name) {
      const std::string_view k = name.raw;
      if (is(k, "id")) return first_time(name, kId, seen) && optional_string(found.id, 1);
      if (is(k, "choices")) return first_time(name, kChoices, seen) && choices(found);
      if (is(k, "usage")) {
        if (!first_time(name, kUsage, seen)) return false;
        if (!at('{')) return value(1);
        found.has_usage = true;
        return usage_object(found);
      }
      if (is(k, "error")) return first_time(name, kError, seen) && error_value(found);
      if (is(k, "timings")) {
        if (!first_time(name, kTimings, seen)) return false;
        return at('{') ? timings_object(found) : value(1);
      }
      return !name.escaped && value(1);
    });
  }

  bool choices(Found& found) {
    if (!at('[')) return value(1);
    return array(1, [&](std::size_t index) {
      if (index != 0 || !at('{')) return value(2);
      found.has_choice = true;
      return choice_object(found);
    });
  }

  bool choice_object(Found& found) {
    unsigned seen = 0;
    return object(2, [&](const RawString& name) {
      const std::string_view k = name.raw;
      if (is(k, "text")) return first_time(name, kText, seen) && optional_string(found.text, 2);
      if (is(k, "finish_reason")) {
        return first_time(name, kFinishReason, seen) && optional_string(found.finish_reason, 2);
      }
      if (is(k, "delta")) {
        if (!first_time(name, kDelta, seen)) return false;
        return at('{') ? delta_object(found) : value(2);
      }
      return !name.escaped && value(2);
    });
  }

  bool delta_object(Found& found) {
    unsigned seen = 0;
    return object(3, [&](const RawString& name) {
      const std::string_view k = name.raw;
      if (is(k, "content")) {
        return first_time(name, kContent, seen) && optional_string(found.content, 3);
      }
      if (is(k, "reasoning_content")) {
        return first_time(name, kReasoningContent, seen) &&
               optional_string(found.reasoning_content, 3);
      }
      if (is(k, "reasoning")) {
        return first_time(name, kReasoning, seen) && optional_string(found.reasoning, 3);
      }
      if (is(k, "tool_calls")) {
        if (!first_time(name, kToolCalls, seen)) return false;
        return at('[') ? scan_tool_calls(*this, found.tool_calls) : value(3);
      }
      return !name.escaped && value(3);
    });
  }

  bool usage_object(Found& found) {
    unsigned seen = 0;
    return object(2, [&](const RawString& name) {
      const std::string_view k = name.raw;
      if (is(k, "prompt_tokens")) {
        return first_time(name, kPromptTokens, seen) && count(found.prompt_tokens);
      }
      if (is(k, "completion_tokens")) {
        return first_time(name, kCompletionTokens, seen) && count(found.completion_tokens);
      }
      if (is(k, "prompt_tokens_details")) {
        if (!first_time(name, kPromptTokensDetails, seen)) return false;
        return at('{') ? prompt_tokens_details_object(found) : value(2);
      }
      if (is(k, "completion_tokens_details")) {
        if (!first_time(name, kCompletionTokensDetails, seen)) return false;
        return at('{') ? completion_tokens_details_object(found) : value(2);
      }
      return !name.escaped && value(2);
    });
  }

  bool completion_tokens_details_object(Found& found) {
    unsigned seen = 0;
    return object(3, [&](const RawString& name) {
      if (is(name.raw, "reasoning_tokens")) {
        return first_time(name, kReasoningTokens, seen) && count(found.reasoning_tokens, 3);
      }
      return !name.escaped && value(3);
    });
  }

  bool prompt_tokens_details_object(Found& found) {
    unsigned seen = 0;
    return object(3, [&](const RawString& name) {
      if (is(name.raw, "cached_tokens")) {
        return first_time(name, kCachedTokens, seen) && count(found.cached_tokens, 3);
      }
      return !name.escaped && value(3);
    });
  }

  // llama.cpp's final chunk: {"prompt_n": ..., "cache_n": ..., "prompt_ms": ..., ...}.
  bool timings_object(Found& found) {
    unsigned seen = 0;
    return object(2, [&](const RawString& name) {
      const std::string_view k = name.raw;
      if (is(k, "prompt_n")) {
        return first_time(name, kPromptN, seen) && count(found.timings_prompt_n);
      }
      if (is(k, "cache_n")) {
        return first_time(name, kCacheN, seen) && count(found.timings_cache_n);
      }
      return !name.escaped && value(2);
    });
  }

  // "error": null is no error; a string or {"message": "..."} is read; any other value would
  // need the DOM path's rendering of it into the message, so the scanner gives up.
  bool error_value(Found& found) {
    if (at('n')) return literal("null");
    found.has_error = true;
    if (at('"')) return string(found.error_message);
    if (!at('{')) return false;
    bool has_message = false;
    unsigned seen = 0;
    const bool valid = object(2, [&](const RawString& name) {
      if (!is(name.raw, "message")) return !name.escaped && value(2);
      if (!first_time(name, kMessage, seen)) return false;
      if (!at('"')) return value(2);
      has_message = true;
      return string(found.error_message);
    });
    return valid && has_message && !found.error_message.raw.empty();
  }
};

}  // namespace

bool scan_chunk(std::string_view data, Chunk& chunk) {
  Found found;
  if (!Scanner(data).scan(found)) return false;

  chunk.reset();

  // The DOM path's order: a non-null error decides the chunk, whatever else it holds.
  if (found.has_error) {
    chunk.kind = Chunk::Kind::error;
    assign_decoded(chunk.error_message, found.error_message);
    if (chunk.error_message.empty()) chunk.error_message = "error event without a message";
    return true;
  }

  chunk.kind = Chunk::Kind::data;
  if (found.id) assign_decoded(chunk.id, *found.id);
  chunk.has_choice = found.has_choice;
  if (found.has_choice) {
    // reasoning_content when it has text, else reasoning, first: the same order as the DOM
    // path. An escaped string is never empty once decoded, so emptiness can be read from the
    // raw bytes.
    const std::optional<RawString>& reasoning =
        found.reasoning_content && !found.reasoning_content->raw.empty() ? found.reasoning_content
                                                                         : found.reasoning;
    if (reasoning) append_decoded(chunk.text, *reasoning);
    chunk.reasoning_size = chunk.text.size();
    if (found.text) append_decoded(chunk.text, *found.text);
    if (found.content) append_decoded(chunk.text, *found.content);
    add_tool_calls(found.tool_calls, chunk);
    if (found.finish_reason) assign_decoded(chunk.finish_reason, *found.finish_reason);
  }
  if (found.has_usage) {
    chunk.prompt_tokens = found.prompt_tokens;
    chunk.completion_tokens = found.completion_tokens;
    chunk.reasoning_tokens = found.reasoning_tokens;
    chunk.cached_tokens = found.cached_tokens;
  }
  chunk.timings_prompt_n = found.timings_prompt_n;
  chunk.timings_cache_n = found.timings_cache_n;
  return true;
}

void interpret_chunk_into(std::string_view data, Chunk& chunk) {
  if (!scan_chunk(data, chunk)) chunk = interpret_chunk_dom(data);
}

}  // namespace bench::protocol
