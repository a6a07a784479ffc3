#pragma once
// The embedded server's HTTP/1.1 request reader (RFC 9112): a request line, header fields, and a
// body framed by Content-Length. It re-reads a connection's buffered bytes until one whole request
// is there, then says how many bytes that request took, so pipelined requests stay in the buffer.
// Chunked request bodies are refused (411): bench and every OpenAI client send Content-Length.
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bench::sim {

struct HttpRequest {
  std::string method;     // "GET", "POST", ...
  std::string target;     // the path, query string removed ("/v1/completions")
  int minor_version = 1;  // HTTP/1.<minor>
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased, values trimmed
  std::string body;
  bool keep_alive = true;  // false for "Connection: close" and for HTTP/1.0 without keep-alive

  /// The value of the first header with this (lower-case) name, or empty.
  std::string_view header(std::string_view lower_name) const;
};

struct HttpLimits {
  std::size_t max_header_bytes = 64 << 10;  // request line + header fields
  std::size_t max_body_bytes = 64 << 20;    // Content-Length above this is refused (413)
};

struct HttpParse {
  enum class Status {
    incomplete,  // more bytes are needed
    complete,    // `request` holds one request; `consumed` bytes of the buffer belong to it
    error,       // the bytes are not an acceptable request: answer `error_status`, then close
  };
  Status status = Status::incomplete;
  std::size_t consumed = 0;
  int error_status = 0;       // 400, 411, 413, 431, 505
  std::string error_message;  // for the JSON error body
};

/// Parses the request at the start of `buffer` into `request`.
HttpParse parse_http_request(std::string_view buffer, HttpRequest& request,
                             const HttpLimits& limits = {});

}  // namespace bench::sim
