#include "error_checks.hpp"

#include <fmt/format.h>

#include "exchange.hpp"

namespace bench::app::conform {

namespace {

using protocol::Endpoint;

// The longest context whose oversize prompt is sent (a body of about 1 MiB); beyond it the check
// is not made.
constexpr std::int64_t kLargestContextTried = 256 << 10;
constexpr std::int64_t kWordsBeyondContext = 64;
constexpr std::size_t kMessageChars = 90;

std::string shortened(std::string text) {
  if (text.size() > kMessageChars) text = text.substr(0, kMessageChars) + "...";
  return text;
}

// A refusal bench reads as one error: a 4xx whose body is a JSON error with a message.
bool one_error(const ConformServer& server, const Answer& answer, std::string& message) {
  const long status = answer.fetched.http_status;
  message = refusal_message(server, answer);
  return status >= 400 && status < 500 && !message.empty();
}

}  // namespace

Verdict check_oversize_prompt(const ConformServer& server) {
  if (!server.max_model_len) {
    return {Holds::not_shown, "the server does not say its max_model_len"};
  }
  if (*server.max_model_len > kLargestContextTried) {
    return {Holds::not_shown,
            fmt::format("max_model_len {} is too long a prompt to send", *server.max_model_len)};
  }
  const std::int64_t words = *server.max_model_len + kWordsBeyondContext;
  std::string prompt;
  prompt.reserve(static_cast<std::size_t>(words) * 4);
  for (std::int64_t i = 0; i < words; ++i) prompt += "the ";
  const protocol::RequestOptions options = request_options(server, Endpoint::completions, 16);
  const Answer answer = send(server, Endpoint::completions, streamed_body(options, prompt));
  std::string message;
  if (one_error(server, answer, message)) {
    return {Holds::holds,
            fmt::format("HTTP {}: {}", answer.fetched.http_status, shortened(message))};
  }
  if (answer.fetched.http_status == 200) {
    return {Holds::fails, fmt::format("a prompt of {} words beyond max_model_len {} was answered",
                                      words, *server.max_model_len)};
  }
  return {Holds::fails, shortened(failure_text(server, answer))};
}

Verdict check_wrong_model(const ConformServer& server) {
  ConformServer wrong = server;
  wrong.model = "bench-conformance-no-such-model";
  const protocol::RequestOptions options = request_options(wrong, Endpoint::chat, 4);
  const Answer answer = send(wrong, Endpoint::chat, streamed_body(options, "Hello"));
  std::string message;
  const long status = answer.fetched.http_status;
  if ((status == 400 || status == 404) && one_error(server, answer, message)) {
    return {Holds::holds, fmt::format("HTTP {}: {}", status, shortened(message))};
  }
  if (status == 200 && answer.record.ok()) {
    return {Holds::not_shown, "answered for any model name (a server of one model)"};
  }
  return {Holds::fails, shortened(failure_text(server, answer))};
}

Verdict check_closed_connection(const ConformServer& server) {
  const protocol::RequestOptions long_answer = request_options(server, Endpoint::chat, 256);
  // A cap of one byte: the engine cuts the transfer at its first read, mid-stream.
  const Answer dropped =
      send(server, Endpoint::chat, streamed_body(long_answer, "Count from 1 to 200."), 1);
  if (dropped.fetched.http_status != 200) {
    return {Holds::fails, "the stream to drop: " + shortened(failure_text(server, dropped))};
  }
  const protocol::RequestOptions options = request_options(server, Endpoint::chat, 8);
  const Answer next = send(server, Endpoint::chat, streamed_body(options, "Hello"));
  if (!next.record.ok()) {
    return {Holds::fails, "after the drop: " + shortened(failure_text(server, next))};
  }
  return {Holds::holds, "dropped mid-stream; the next request, on a new connection, completed"};
}

}  // namespace bench::app::conform
