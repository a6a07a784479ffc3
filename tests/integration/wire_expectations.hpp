#pragma once
// What a wire recording implies a client must measure, read from its bytes and times alone: per
// streamed exchange the usage it reports, the cached share it discloses, when its first text
// arrived, the gaps between its text events, when it ended. The wire-corpus tests hold bench's
// figures against these.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/wire/recording.hpp"

namespace bench::testing {

struct StreamFacts {
  bool ok = false;  // status 200, and no error event in its stream
  std::int64_t prompt_tokens = 0;
  std::int64_t completion_tokens = 0;
  std::optional<std::int64_t> cached_tokens;  // as bench's rule: details, cache_n, prompt_n
  std::int64_t first_text_ns = 0;           // the read that completed the first text-carrying event
  std::vector<std::int64_t> text_event_ns;  // every text-carrying event's read
  std::int64_t end_ns = 0;                  // the last read
  // Every text-carrying event says the tokens generated so far, more than the one before
  // (vLLM's continuous_usage_stats): its own tokens are exact. Zeros on every chunk (Ollama's
  // completions) are no such count.
  bool running_usage = false;
  // A usage object came (bench's counts are the server's); without one bench counts the
  // text-carrying events as output tokens and leaves the prompt unknown.
  bool usage = false;
};

/// The body of a chunked HTTP response prefix (whatever whole-or-part chunks it holds).
inline std::string dechunk(const std::string& response) {
  const std::size_t head_end = response.find("\r\n\r\n");
  if (head_end == std::string::npos) return "";
  const bool chunked = response.substr(0, head_end).find("chunked") != std::string::npos;
  std::string body;
  std::size_t at = head_end + 4;
  if (!chunked) return response.substr(at);
  while (at < response.size()) {
    const std::size_t line_end = response.find("\r\n", at);
    if (line_end == std::string::npos) break;
    const std::size_t size = std::stoul(response.substr(at, line_end - at), nullptr, 16);
    if (size == 0) break;
    body += response.substr(line_end + 2, size);
    at = line_end + 2 + size + 2;
  }
  return body;
}

/// Whether a Responses API event carries generated tokens: a text, reasoning or arguments
/// delta, or a function call's item (its name: OpenAI's streaming events reference).
inline bool carries_responses_tokens(const nlohmann::json& event) {
  const std::string type = event.value("type", "");
  if (type == "response.output_item.added") {
    return event.contains("item") && event["item"].is_object() &&
           event["item"].value("type", "") == "function_call";
  }
  const bool delta = type == "response.output_text.delta" ||
                     type == "response.reasoning_text.delta" ||
                     type == "response.reasoning_summary_text.delta" ||
                     type == "response.function_call_arguments.delta";
  return delta && event.contains("delta") && event["delta"].is_string() &&
         !event["delta"].get<std::string>().empty();
}

/// Whether a chat delta carries a tool call's name or argument text (bench's first-token rule
/// counts them as generated tokens, protocol/stream_reader.hpp).
inline bool carries_tool_call(const nlohmann::json& delta) {
  if (!delta.contains("tool_calls") || !delta["tool_calls"].is_array()) return false;
  for (const auto& call : delta["tool_calls"]) {
    if (!call.is_object() || !call.contains("function") || !call["function"].is_object()) continue;
    for (const char* key : {"name", "arguments"}) {
      const auto& function = call["function"];
      if (function.contains(key) && function[key].is_string() &&
          !function[key].get<std::string>().empty())
        return true;
    }
  }
  return false;
}

/// Whether an event's JSON carries generated tokens (content, text, reasoning or a tool call's
/// delta; a Responses API event by its type).
inline bool carries_text(const nlohmann::json& event) {
  if (event.contains("type") && event["type"].is_string()) return carries_responses_tokens(event);
  if (!event.contains("choices") || !event["choices"].is_array()) return false;
  for (const auto& choice : event["choices"]) {
    for (const char* key : {"text"}) {
      if (choice.contains(key) && choice[key].is_string() &&
          !choice[key].get<std::string>().empty())
        return true;
    }
    if (!choice.contains("delta") || !choice["delta"].is_object()) continue;
    for (const char* key : {"content", "reasoning_content", "reasoning"}) {
      const auto& delta = choice["delta"];
      if (delta.contains(key) && delta[key].is_string() && !delta[key].get<std::string>().empty())
        return true;
    }
    if (carries_tool_call(choice["delta"])) return true;
  }
  return false;
}

/// The data events of an SSE body, as JSON (non-JSON events, [DONE], are skipped).
inline std::vector<nlohmann::json> data_events(const std::string& body) {
  std::vector<nlohmann::json> out;
  std::size_t at = 0;
  while (true) {
    const std::size_t end = body.find("\n\n", at);
    if (end == std::string::npos) break;
    const std::string event = body.substr(at, end - at);
    at = end + 2;
    const std::size_t data = event.find("data:");
    if (data == std::string::npos) continue;
    const auto parsed = nlohmann::json::parse(event.substr(data + 5), nullptr, false);
    if (parsed.is_object()) out.push_back(parsed);
  }
  return out;
}

/// Whether every text-carrying event of `events` has a usage whose completion_tokens rises.
inline bool has_running_usage(const std::vector<nlohmann::json>& events) {
  std::int64_t before = 0;
  bool any = false;
  for (const auto& event : events) {
    if (!carries_text(event)) continue;
    if (!event.contains("usage") || !event["usage"].is_object()) return false;
    const auto now = event["usage"].value("completion_tokens", std::int64_t{0});
    if (now <= before) return false;
    before = now;
    any = true;
  }
  return any;
}

inline StreamFacts stream_facts(const wire::Exchange& exchange) {
  StreamFacts facts;
  facts.end_ns = exchange.reads.empty() ? 0 : exchange.reads.back().at_ns;
  // A 200 whose stream carries an error event (TGI refuses a streamed request that way) is a
  // failure too.
  const std::vector<nlohmann::json> events = data_events(dechunk(exchange.response));
  facts.ok = exchange.status == 200;
  for (const auto& event : events) {
    if (event.contains("error") && !event["error"].is_null()) facts.ok = false;
  }
  if (!facts.ok) return facts;
  // The time of each event is that of the read that completed it.
  std::size_t seen = 0;
  for (const wire::Read& read : exchange.reads) {
    const auto so_far = data_events(dechunk(exchange.response.substr(0, read.end)));
    for (; seen < so_far.size(); ++seen) {
      if (carries_text(so_far[seen])) facts.text_event_ns.push_back(read.at_ns);
    }
  }
  if (!facts.text_event_ns.empty()) facts.first_text_ns = facts.text_event_ns.front();
  std::optional<std::int64_t> details, cache_n, prompt_n;
  facts.running_usage = has_running_usage(events);
  for (const auto& event : events) {
    // The Responses API: the usage of the response an ending event carries.
    if (event.contains("response") && event["response"].is_object() &&
        event["response"].contains("usage") && event["response"]["usage"].is_object()) {
      const auto& usage = event["response"]["usage"];
      facts.usage = true;
      facts.prompt_tokens = usage.value("input_tokens", std::int64_t{0});
      facts.completion_tokens = usage.value("output_tokens", std::int64_t{0});
      if (usage.contains("input_tokens_details") && usage["input_tokens_details"].is_object() &&
          usage["input_tokens_details"].contains("cached_tokens")) {
        details = usage["input_tokens_details"]["cached_tokens"].get<std::int64_t>();
      }
    }
    if (event.contains("usage") && event["usage"].is_object()) {
      const auto& usage = event["usage"];
      facts.usage = true;
      facts.prompt_tokens = usage.value("prompt_tokens", std::int64_t{0});
      facts.completion_tokens = usage.value("completion_tokens", std::int64_t{0});
      if (usage.contains("prompt_tokens_details") && usage["prompt_tokens_details"].is_object() &&
          usage["prompt_tokens_details"].contains("cached_tokens")) {
        details = usage["prompt_tokens_details"]["cached_tokens"].get<std::int64_t>();
      }
    }
    if (event.contains("timings") && event["timings"].is_object()) {
      const auto& timings = event["timings"];
      if (timings.contains("cache_n")) cache_n = timings["cache_n"].get<std::int64_t>();
      if (timings.contains("prompt_n")) prompt_n = timings["prompt_n"].get<std::int64_t>();
    }
  }
  if (details) {
    facts.cached_tokens = details;
  } else if (cache_n) {
    facts.cached_tokens = cache_n;
  } else if (prompt_n) {
    facts.cached_tokens = facts.prompt_tokens - *prompt_n;
  }
  return facts;
}

}  // namespace bench::testing
