#pragma once
// The classes a request can end in. A failed request is data: it is counted under exactly one
// class, never thrown and never dropped. Invariant kept by every run:
//   sent == completed + failed + cancelled.
#include <optional>
#include <string_view>

namespace bench::metrics {

enum class ErrorClass {
  none,              // the request completed: a finished stream with a finish_reason or [DONE]
  connect_refused,   // TCP connection refused (nothing listening)
  dns,               // host name could not be resolved
  tls,               // TLS handshake or certificate failure
  connect_timeout,   // no connection within --connect-timeout
  http_4xx,          // HTTP status 400-499 other than 429; message from the server's error body
  context_overflow,  // an HTTP 4xx whose body says the prompt did not fit the model's context
                     // (protocol/context_overflow.hpp): counted apart, as AgentX counts it
  http_5xx,          // HTTP status 500-599; message from the server's error body
  http_other,        // any other non-200 status (1xx/3xx after redirects are not followed)
  rate_limited,      // HTTP 429
  ttft_timeout,      // no generated text within --ttft-timeout
  stall,             // no byte for --stall-timeout in the middle of a stream
  request_timeout,   // the whole request exceeded --request-timeout
  malformed_sse,     // the body broke the event-stream rules or a size cap
  malformed_json,    // a data event that is not valid JSON (and not [DONE])
  stream_error,      // an error object inside a 200 stream
  truncated,         // the stream ended with neither finish_reason nor [DONE]
  transport,         // any other transport failure (connection reset, send/recv error)
  not_built,         // bench could not build the request (a dataset's file unreadable mid-run,
                     // the tokenizer failing): never sent. A failure in every error rate, as the
                     // others: the workload asked for it and the run could not serve it
  cancelled,         // stopped by bench itself (interrupt, --duration-hard); not a failure
};

/// Stable snake_case name used in the report and in JSON ("http_5xx", "stall", ...).
std::string_view error_class_name(ErrorClass error);

/// Inverse of error_class_name; nullopt for an unknown name.
std::optional<ErrorClass> error_class_from_name(std::string_view name);

/// Every class in declaration order, for iteration in reports.
inline constexpr ErrorClass kAllErrorClasses[] = {
    ErrorClass::none,
    ErrorClass::connect_refused,
    ErrorClass::dns,
    ErrorClass::tls,
    ErrorClass::connect_timeout,
    ErrorClass::http_4xx,
    ErrorClass::context_overflow,
    ErrorClass::http_5xx,
    ErrorClass::http_other,
    ErrorClass::rate_limited,
    ErrorClass::ttft_timeout,
    ErrorClass::stall,
    ErrorClass::request_timeout,
    ErrorClass::malformed_sse,
    ErrorClass::malformed_json,
    ErrorClass::stream_error,
    ErrorClass::truncated,
    ErrorClass::transport,
    ErrorClass::not_built,
    ErrorClass::cancelled,
};

}  // namespace bench::metrics
