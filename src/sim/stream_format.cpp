#include "bench/sim/stream_format.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace bench::sim {

namespace {

// Plain words, so generated text needs no JSON escaping and a chunk of k tokens holds k words.
// Each, after its space, is one token in the vocabularies of Llama-3, Qwen3,
// DeepSeek-V3 and Gemma-3 (checked against Hugging Face's tokenizers), so a client counting the
// streamed text with one of those tokenizer.json files arrives at the simulator's own count.
constexpr std::string_view kWords[] = {
    "the",   "model",     "token", "of",      "stream", "and",     "batch", "to",
    "cache", "a",         "GPU",   "in",      "is",     "decode",  "for",   "layer",
    "with",  "each",      "time",  "on",      "input",  "that",    "as",    "prompt",
    "by",    "step",      "it",    "from",    "rate",   "at",      "queue", "an",
    "or",    "output",    "be",    "this",    "are",    "memory",  "we",    "kernel",
    "not",   "load",      "which", "server",  "can",    "first",   "all",   "more",
    "one",   "bandwidth", "has",   "but",     "was",    "request", "its",   "so",
    "into",  "than",      "other", "weights", "when",   "only",    "these", "tensor",
};
constexpr std::size_t kWordCount = std::size(kWords);

std::string_view line_end(const ResponseShape& shape) { return shape.crlf ? "\r\n" : "\n"; }

void begin_data(std::string& out) { out += "data: "; }

void end_event(std::string& out, const ResponseShape& shape) {
  out += line_end(shape);
  out += line_end(shape);
}

void append_chunk_head(std::string& out, const ResponseShape& shape) {
  fmt::format_to(std::back_inserter(out), R"({{"id":"{}","object":"{}","created":{},"model":{},)",
                 shape.id, shape.chat ? "chat.completion.chunk" : "text_completion", shape.created,
                 shape.model_json);
}

void append_chunk_tail(std::string& out, const Usage* usage) {
  out += R"(,"usage":)";
  if (usage != nullptr) {
    append_usage_json(out, *usage);
  } else {
    out += "null";
  }
  out += '}';
}

}  // namespace

std::string_view reasoning_field_name(ReasoningField field) {
  return field == ReasoningField::reasoning ? "reasoning" : "reasoning_content";
}

std::string json_string(std::string_view text) {
  return nlohmann::json(std::string(text))
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void append_token_text(std::string& out, std::uint64_t seed, std::int64_t first,
                       std::int64_t count) {
  for (std::int64_t i = first; i < first + count; ++i) {
    out += ' ';
    out += kWords[(seed * 31 + static_cast<std::uint64_t>(i) * 7) % kWordCount];
  }
}

std::string_view sim_answers_name(SimAnswers answers) {
  switch (answers) {
    case SimAnswers::canned: return "canned";
    case SimAnswers::random: return "random";
    case SimAnswers::repeat: return "repeat";
    case SimAnswers::empty: return "empty";
  }
  return "canned";
}

std::optional<SimAnswers> parse_sim_answers(std::string_view name) {
  for (const SimAnswers answers :
       {SimAnswers::canned, SimAnswers::random, SimAnswers::repeat, SimAnswers::empty}) {
    if (sim_answers_name(answers) == name) return answers;
  }
  return std::nullopt;
}

namespace {

// Word `index` (0-based) of `text`'s whitespace-separated words; empty past the last.
std::string_view nth_word(std::string_view text, std::int64_t index) {
  std::size_t at = 0;
  for (std::int64_t word = 0;; ++word) {
    at = text.find_first_not_of(" \t\n", at);
    if (at == std::string_view::npos) return {};
    const std::size_t end = std::min(text.find_first_of(" \t\n", at), text.size());
    if (word == index) return text.substr(at, end - at);
    at = end;
  }
}

}  // namespace

void append_generated_text(std::string& out, const GeneratedText& text, std::int64_t first,
                           std::int64_t count) {
  switch (text.answers) {
    case SimAnswers::empty: return;
    case SimAnswers::repeat:
      for (std::int64_t i = 0; i < count; ++i) out += " the";
      return;
    case SimAnswers::random:
    case SimAnswers::canned: break;
  }
  for (std::int64_t i = first; i < first + count; ++i) {
    const std::string_view word = text.canned.empty() || i < text.answer_start
                                      ? std::string_view()
                                      : nth_word(text.canned, i - text.answer_start);
    if (word.empty()) {
      append_token_text(out, text.seed, i, 1);
    } else {
      out += ' ';
      out += word;
    }
  }
}

void append_usage_json(std::string& out, const Usage& usage) {
  fmt::format_to(
      std::back_inserter(out), R"({{"prompt_tokens":{},"total_tokens":{},"completion_tokens":{})",
      usage.prompt_tokens, usage.prompt_tokens + usage.completion_tokens, usage.completion_tokens);
  if (usage.cached_tokens >= 0) {
    fmt::format_to(std::back_inserter(out), R"(,"prompt_tokens_details":{{"cached_tokens":{}}})",
                   usage.cached_tokens);
  }
  if (usage.reasoning_tokens >= 0) {
    fmt::format_to(std::back_inserter(out),
                   R"(,"completion_tokens_details":{{"reasoning_tokens":{}}})",
                   usage.reasoning_tokens);
  }
  out += '}';
}

void append_finish(std::string& out, std::string_view finish_reason) {
  if (finish_reason.empty()) {
    out += "null";
  } else {
    out += '"';
    out += finish_reason;
    out += '"';
  }
}

void append_tool_call_arguments(std::string& out, const GeneratedText& text,
                                std::int64_t call_start, std::int64_t call_end, std::int64_t first,
                                std::int64_t count) {
  for (std::int64_t token = first; token < first + count; ++token) {
    if (token == call_start) continue;  // the name
    const std::size_t word_start = out.size();
    append_generated_text(out, text, token, 1);
    if (token == call_start + 1) {
      out.erase(word_start, 1);  // the word's leading space
      out.insert(word_start, R"({"text": ")");
    }
    if (token == call_end - 1) out += R"("})";
  }
}

void append_role_event(std::string& out, const ResponseShape& shape, const Usage* usage) {
  begin_data(out);
  append_chunk_head(out, shape);
  out += R"("choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,)"
         R"("finish_reason":null}])";
  append_chunk_tail(out, usage);
  end_event(out, shape);
}

void append_text_event(std::string& out, const ResponseShape& shape, std::string_view text,
                       std::string_view finish_reason, const Usage* usage) {
  begin_data(out);
  append_chunk_head(out, shape);
  if (shape.chat) {
    out += R"("choices":[{"index":0,"delta":{"content":")";
    out += text;
    out += R"("},"logprobs":null,"finish_reason":)";
    append_finish(out, finish_reason);
    out += "}]";
  } else {
    out += R"("choices":[{"index":0,"text":")";
    out += text;
    out += R"(","logprobs":null,"finish_reason":)";
    append_finish(out, finish_reason);
    out += R"(,"stop_reason":null}])";
  }
  append_chunk_tail(out, usage);
  end_event(out, shape);
}

void append_reasoning_event(std::string& out, const ResponseShape& shape,
                            std::string_view reasoning, std::string_view answer,
                            std::string_view finish_reason, const Usage* usage) {
  begin_data(out);
  append_chunk_head(out, shape);
  // SGLang's shape: both fields present, the one without text null.
  out += R"("choices":[{"index":0,"delta":{"content":)";
  if (answer.empty()) {
    out += "null";
  } else {
    out += '"';
    out += answer;
    out += '"';
  }
  fmt::format_to(std::back_inserter(out), R"(,"{}":")",
                 reasoning_field_name(shape.reasoning_field));
  out += reasoning;
  out += R"("},"logprobs":null,"finish_reason":)";
  append_finish(out, finish_reason);
  out += "}]";
  append_chunk_tail(out, usage);
  end_event(out, shape);
}

void append_tool_call_event(std::string& out, const ResponseShape& shape,
                            std::string_view reasoning, std::string_view name,
                            std::string_view arguments, std::string_view finish_reason,
                            const Usage* usage) {
  begin_data(out);
  append_chunk_head(out, shape);
  out += R"("choices":[{"index":0,"delta":{)";
  if (!reasoning.empty()) {
    fmt::format_to(std::back_inserter(out), R"("{}":{},)",
                   reasoning_field_name(shape.reasoning_field), json_string(reasoning));
  }
  out += R"("tool_calls":[{)";
  if (!name.empty()) {
    // vLLM's ids: "chatcmpl-tool-" and a random suffix; the response's own id makes it unique.
    fmt::format_to(std::back_inserter(out),
                   R"("id":"chatcmpl-tool-{}","type":"function","index":0,"function":{{"name":{})",
                   shape.id, json_string(name));
    if (!arguments.empty()) {
      fmt::format_to(std::back_inserter(out), R"(,"arguments":{})", json_string(arguments));
    }
    out += "}";
  } else {
    fmt::format_to(std::back_inserter(out), R"("index":0,"function":{{"arguments":{}}})",
                   json_string(arguments));
  }
  out += R"(}]},"logprobs":null,"finish_reason":)";
  append_finish(out, finish_reason);
  out += "}]";
  append_chunk_tail(out, usage);
  end_event(out, shape);
}

void append_usage_event(std::string& out, const ResponseShape& shape, const Usage& usage) {
  begin_data(out);
  append_chunk_head(out, shape);
  out += R"("choices":[])";
  append_chunk_tail(out, &usage);
  end_event(out, shape);
}

void append_done_event(std::string& out, const ResponseShape& shape) {
  out += "data: [DONE]";
  end_event(out, shape);
}

void append_comment_event(std::string& out, const ResponseShape& shape, std::string_view text) {
  out += ": ";
  out += text;
  end_event(out, shape);
}

void append_stream_error_event(std::string& out, const ResponseShape& shape,
                               std::string_view message) {
  if (shape.messages) {
    // Anthropic's named error event: a server fault is its api_error.
    out += "event: error";
    out += line_end(shape);
    begin_data(out);
    out += anthropic_error_body(message, "api_error");
    end_event(out, shape);
    return;
  }
  begin_data(out);
  out += R"({"error":{"message":)";
  out += json_string(message);
  out += R"(,"type":"server_error","code":500}})";
  end_event(out, shape);
}

void append_malformed_event(std::string& out, const ResponseShape& shape) {
  begin_data(out);
  append_chunk_head(out, shape);
  out += shape.chat ? R"("choices":[{"index":0,"delta":{"content":" cut off)"
                    : R"("choices":[{"index":0,"text":" cut off)";
  end_event(out, shape);
}

void append_stream_head(std::string& out, bool keep_alive, bool llama_keep_alive) {
  out +=
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
      "Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n";
  out += keep_alive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
  if (keep_alive && llama_keep_alive) out += "Keep-Alive: timeout=5, max=100\r\n";
  out += "\r\n";
}

void append_simple_response(std::string& out, int status, std::string_view content_type,
                            std::string_view body, bool keep_alive) {
  fmt::format_to(std::back_inserter(out),
                 "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n"
                 "Connection: {}\r\n",
                 status, reason_phrase(status), content_type, body.size(),
                 keep_alive ? "keep-alive" : "close");
  // RFC 9110 section 10.2.3: a client may retry after this many seconds.
  if (status == 429 || status == 503) out += "Retry-After: 1\r\n";
  out += "\r\n";
  out += body;
}

std::string_view reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 411: return "Length Required";
    case 413: return "Content Too Large";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
  }
}

std::string_view error_type(int status) {
  if (status == 404) return "not_found_error";
  if (status == 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

std::string_view anthropic_error_type(int status) {
  switch (status) {
    case 400: return "invalid_request_error";
    case 401: return "authentication_error";
    case 403: return "permission_error";
    case 404: return "not_found_error";
    case 413: return "request_too_large";
    case 429: return "rate_limit_error";
    case 503:
    case 529: return "overloaded_error";
    default: return status >= 500 ? "api_error" : "invalid_request_error";
  }
}

std::string models_body(std::string_view model, std::int64_t created, std::int64_t max_model_len) {
  return fmt::format(
      R"({{"object":"list","data":[{{"id":{},"object":"model","created":{},"owned_by":"bench",)"
      R"("max_model_len":{}}}]}})",
      json_string(model), created, max_model_len);
}

std::string error_body(std::string_view message, std::string_view type, int code) {
  return fmt::format(R"({{"error":{{"message":{},"type":{},"code":{}}}}})", json_string(message),
                     json_string(type), code);
}

std::string anthropic_error_body(std::string_view message, std::string_view type) {
  return fmt::format(R"({{"type":"error","error":{{"type":{},"message":{}}}}})", json_string(type),
                     json_string(message));
}

void append_http_chunk(std::string& out, std::string_view payload) {
  if (payload.empty()) return;  // a zero-size chunk would end the body
  fmt::format_to(std::back_inserter(out), "{:x}\r\n", payload.size());
  out += payload;
  out += "\r\n";
}

void append_last_http_chunk(std::string& out) { out += "0\r\n\r\n"; }

}  // namespace bench::sim
