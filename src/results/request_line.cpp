// The per-request log's line (--save-requests), written straight into a string. It is written on
// the event loop as each request ends, and a wave of a thousand requests ends at once: built as
// a JSON document it took about 350 allocations a line (one per chunk time, key and value),
// milliseconds of the loop's time per wave in which no socket was read. The text is what
// nlohmann::json writes for the same document: the same keys in the same order, numbers
// formatted as it formats them, strings escaped by it.
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/metrics/error_class.hpp"
#include "bench/results/writer.hpp"
#include "bench/util/clock.hpp"

namespace bench::results {

namespace {

void append_int(std::string& out, std::int64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

// As nlohmann::json writes a double: the shortest digits that read back the same, in fixed
// notation while the decimal point falls within 15 digits left or 4 zeros right of them, with
// ".0" on a whole number. The log's times are whole microseconds in milliseconds (0.001 up to
// 13 integer digits), always fixed; anything else is left to the library.
void append_double(std::string& out, double value) {
  char text[32];
  const char* end =
      std::to_chars(text, text + sizeof text, value, std::chars_format::scientific).ptr;
  std::string_view scientific(text, static_cast<std::size_t>(end - text));  // [-]d[.ddd]e±XX
  const bool negative = scientific.front() == '-';
  if (negative) scientific.remove_prefix(1);
  const std::size_t e = scientific.find('e');
  std::string_view exponent_text = scientific.substr(e + 1);
  if (exponent_text.front() == '+') exponent_text.remove_prefix(1);
  int exponent = 0;
  std::from_chars(exponent_text.data(), exponent_text.data() + exponent_text.size(), exponent);
  const int point = exponent + 1;  // the value is 0.<digits> x 10^point
  if (value == 0 || point > 15 || point <= -4) {
    out += nlohmann::json(value).dump();
    return;
  }
  std::string digits(1, scientific[0]);
  if (e > 1) digits.append(scientific.substr(2, e - 2));
  const int length = static_cast<int>(digits.size());
  if (negative) out += '-';
  if (point >= length) {  // digits[000].0
    out += digits;
    out.append(static_cast<std::size_t>(point - length), '0');
    out += ".0";
  } else if (point > 0) {  // dig.its
    out.append(digits, 0, static_cast<std::size_t>(point));
    out += '.';
    out.append(digits, static_cast<std::size_t>(point));
  } else {  // 0.[000]digits
    out += "0.";
    out.append(static_cast<std::size_t>(-point), '0');
    out += digits;
  }
}

// Server-supplied text may hold invalid UTF-8: those bytes become U+FFFD.
void append_text_or_null(std::string& out, const std::string& text) {
  if (text.empty()) {
    out += "null";
    return;
  }
  out += nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The server's names of the tool calls, as a JSON array (invalid UTF-8 as U+FFFD).
void append_names(std::string& out, const std::vector<std::string>& names) {
  out += nlohmann::json(names).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void append_name(std::string& out, std::string_view name) {  // bench's own identifiers
  out += '"';
  out += name;
  out += '"';
}

// `"key":`, after a comma unless it opens the object.
void append_key(std::string& out, std::string_view name) {
  if (out.back() != '{') out += ',';
  append_name(out, name);
  out += ':';
}

void append_known(std::string& out, std::int64_t count) {  // -1: unknown
  if (count < 0) {
    out += "null";
  } else {
    append_int(out, count);
  }
}

void append_ms_since(std::string& out, std::int64_t ns, std::int64_t from_ns) {  // -1: none
  if (ns < 0) {
    out += "null";
  } else {
    append_double(out, ns_to_ms_rounded_to_us(ns - from_ns));
  }
}

void append_bool(std::string& out, bool value) { out += value ? "true" : "false"; }

void append_timing(std::string& out, const metrics::RequestRecord& r) {
  append_key(out, "intended_start_ms");
  append_double(out, ns_to_ms_rounded_to_us(r.intended_start_ns));
  append_key(out, "slot_wait_ms");
  append_double(out, ns_to_ms_rounded_to_us(r.slot_wait_ns));
  append_key(out, "start_ms");
  append_double(out, ns_to_ms_rounded_to_us(r.start_ns));
  append_key(out, "ttft_ms");
  append_ms_since(out, r.first_token_ns, r.start_ns);
  append_key(out, "ttfa_ms");
  append_ms_since(out, r.first_answer_ns, r.start_ns);
  append_key(out, "e2e_ms");
  append_double(out, ns_to_ms_rounded_to_us(r.end_ns - r.start_ns));
  append_key(out, "new_connection");
  append_bool(out, r.new_connection);
  append_key(out, "connect_ms");
  append_ms_since(out, r.connect_ns, 0);
  append_key(out, "connection_retries");
  append_int(out, r.connection_retries);
  append_key(out, "chunk_arrival_ms");
  out += '[';
  for (std::size_t i = 0; i < r.text_chunk_ns.size(); ++i) {
    if (i > 0) out += ',';
    append_double(out, ns_to_ms_rounded_to_us(r.text_chunk_ns[i] - r.start_ns));
  }
  out += ']';
  append_key(out, "chunk_tokens");
  if (r.text_chunk_tokens.empty()) {
    out += "null";
  } else {
    out += '[';
    for (std::size_t i = 0; i < r.text_chunk_tokens.size(); ++i) {
      if (i > 0) out += ',';
      append_int(out, r.text_chunk_tokens[i]);
    }
    out += ']';
  }
  // The chunks with a choice, text or not (role-only, finish-only): what another client's TTFT,
  // ITL and E2E stamp (bench report --as).
  append_key(out, "first_choice_ms");
  append_ms_since(out, r.first_choice_ns, r.start_ns);
  append_key(out, "last_choice_ms");
  append_ms_since(out, r.last_choice_ns, r.start_ns);
  append_key(out, "choice_chunks");
  append_int(out, r.choice_chunks);
}

// A count a failed request has none of: `append` writes it for a completed one, null otherwise.
template <typename Append>
void when_ok(std::string& out, const metrics::RequestRecord& r, Append append) {
  if (r.ok()) {
    append();
  } else {
    out += "null";
  }
}

void append_tokens(std::string& out, const metrics::RequestRecord& r) {
  append_key(out, "prompt_tokens");
  append_known(out, r.prompt_tokens);
  append_key(out, "completion_tokens");
  append_known(out, r.completion_tokens);
  append_key(out, "prompt_token_source");
  append_name(out, metrics::token_source_name(r.prompt_token_source));
  append_key(out, "completion_token_source");
  append_name(out, metrics::token_source_name(r.completion_token_source));
  append_key(out, "reasoning_chunks");
  append_int(out, r.reasoning_chunks);
  append_key(out, "reasoning_tokens");
  when_ok(out, r, [&] { append_int(out, r.reasoning_tokens); });
  append_key(out, "answer_tokens");
  when_ok(out, r, [&] { append_known(out, r.answer_tokens()); });
  append_key(out, "reasoning_token_source");
  append_name(out, metrics::token_source_name(r.reasoning_token_source));
  append_key(out, "tool_calls");
  append_int(out, r.tool_calls());
  append_key(out, "tool_call_names");
  append_names(out, r.tool_call_names);
  append_key(out, "tool_call_chunks");
  append_int(out, r.tool_call_chunks);
  append_key(out, "tool_call_tokens");
  when_ok(out, r, [&] { append_int(out, r.tool_call_tokens); });
  append_key(out, "tool_call_token_source");
  append_name(out, metrics::token_source_name(r.tool_call_token_source));
  append_key(out, "cached_prompt_tokens");
  append_known(out, r.cached_prompt_tokens);
  append_key(out, "computed_prompt_tokens");
  append_known(out, r.computed_prompt_tokens());
  append_key(out, "cached_prompt_token_source");
  append_name(out, metrics::cached_token_source_name(r.cached_prompt_token_source));
  if (r.cache_ceiling_tokens >= 0) {  // a replayed agent trace's request only
    append_key(out, "cache_ceiling_tokens");
    append_int(out, r.cache_ceiling_tokens);
  }
  append_key(out, "requested_input_len");
  append_int(out, r.requested_input_len);
  append_key(out, "client_prompt_tokens");
  append_known(out, r.client_prompt_tokens);
  append_key(out, "requested_output_len");
  append_int(out, r.requested_output_len);
}

}  // namespace

void append_request_jsonl(std::string& out, const metrics::RequestRecord& r, std::string_view point,
                          std::size_t server) {
  out += '{';
  if (!point.empty()) {
    append_key(out, "point");
    out += point;
  }
  append_key(out, "index");
  append_int(out, static_cast<std::int64_t>(r.index));
  append_key(out, "session");
  append_known(out, r.session);
  append_key(out, "turn");
  append_known(out, r.turn);
  append_key(out, "branch");
  append_known(out, r.branch);
  append_key(out, "server");
  append_int(out, static_cast<std::int64_t>(server));
  append_key(out, "response_id");
  append_text_or_null(out, r.response_id);
  append_key(out, "trace_id");
  append_text_or_null(out, r.trace_id);
  append_key(out, "span_id");
  append_text_or_null(out, r.span_id);
  append_key(out, "warmup");
  append_bool(out, r.warmup);
  // false: "stream": false, so ttft_ms and ttfa_ms are null and chunk_arrival_ms empty.
  append_key(out, "streamed");
  append_bool(out, r.streamed);
  append_timing(out, r);
  append_tokens(out, r);
  append_key(out, "finish_reason");
  append_text_or_null(out, r.finish_reason);
  append_key(out, "saw_done");
  append_bool(out, r.saw_done);
  append_key(out, "text_bytes");
  append_int(out, r.text_bytes);
  append_key(out, "http_status");
  append_known(out, r.http_status == 0 ? -1 : r.http_status);
  append_key(out, "status");
  append_name(out, r.ok() ? std::string_view("ok") : metrics::error_class_name(r.error));
  append_key(out, "error");
  append_text_or_null(out, r.error_message);
  out += '}';
}

std::string request_to_jsonl(const metrics::RequestRecord& record, const nlohmann::json& point,
                             std::size_t server) {
  std::string line;
  append_request_jsonl(line, record, point.is_null() ? std::string() : point.dump(), server);
  return line;
}

}  // namespace bench::results
