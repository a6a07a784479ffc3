#include "bench/sim/http_request.hpp"

#include <algorithm>
#include <charconv>

#include "bench/util/text.hpp"

namespace bench::sim {

namespace {

using Status = HttpParse::Status;

constexpr std::string_view kLineEnd = "\r\n";
constexpr std::string_view kHeadEnd = "\r\n\r\n";

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string lowered(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), lower);
  return out;
}

// Optional white space around a header's value (RFC 9110 section 5.6.3).
constexpr std::string_view kOws = " \t";

// Whether a comma-separated header value (Connection: keep-alive, Upgrade) lists `token`.
bool lists_token(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    const std::size_t comma = value.find(',');
    if (lowered(util::trim(value.substr(0, comma), kOws)) == token) return true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return false;
}

HttpParse failure(int status, std::string message) {
  HttpParse parse;
  parse.status = Status::error;
  parse.error_status = status;
  parse.error_message = std::move(message);
  return parse;
}

// "METHOD SP target SP HTTP/1.x"
bool parse_request_line(std::string_view line, HttpRequest& request, HttpParse& error) {
  const std::size_t first = line.find(' ');
  const std::size_t second = first == std::string_view::npos ? first : line.find(' ', first + 1);
  if (first == 0 || second == std::string_view::npos || second == first + 1) {
    error = failure(400, "malformed request line");
    return false;
  }
  request.method.assign(line.substr(0, first));
  std::string_view target = line.substr(first + 1, second - first - 1);
  target = target.substr(0, target.find('?'));
  request.target.assign(target);
  const std::string_view version = line.substr(second + 1);
  if (version == "HTTP/1.1") {
    request.minor_version = 1;
  } else if (version == "HTTP/1.0") {
    request.minor_version = 0;
  } else {
    error = failure(505, "only HTTP/1.0 and HTTP/1.1 are supported");
    return false;
  }
  return true;
}

// The header fields after the request line, into request.headers; Content-Length into
// content_length. False with `error` set for a field bench's server refuses.
bool parse_header_fields(std::string_view fields, HttpRequest& request, std::size_t& content_length,
                         HttpParse& error) {
  bool has_content_length = false;
  std::string_view rest = fields;
  while (!rest.empty()) {
    const std::size_t end = rest.find(kLineEnd);
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? "" : rest.substr(end + 2);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0 || line.front() == ' ' ||
        line.front() == '\t') {
      // Obsolete line folding and nameless fields are rejected (RFC 9112 section 5.2).
      error = failure(400, "malformed header field");
      return false;
    }
    std::string name = lowered(line.substr(0, colon));
    const std::string_view value = util::trim(line.substr(colon + 1), kOws);
    if (name == "content-length") {
      std::size_t parsed = 0;
      const auto [end_ptr, code] =
          std::from_chars(value.data(), value.data() + value.size(), parsed);
      if (code != std::errc() || end_ptr != value.data() + value.size() ||
          (has_content_length && parsed != content_length)) {
        error = failure(400, "invalid Content-Length");
        return false;
      }
      content_length = parsed;
      has_content_length = true;
    } else if (name == "transfer-encoding") {
      error = failure(411, "chunked request bodies are not supported; send Content-Length");
      return false;
    }
    request.headers.emplace_back(std::move(name), std::string(value));
  }
  return true;
}

}  // namespace

std::string_view HttpRequest::header(std::string_view lower_name) const {
  for (const auto& [name, value] : headers) {
    if (name == lower_name) return value;
  }
  return {};
}

HttpParse parse_http_request(std::string_view buffer, HttpRequest& request,
                             const HttpLimits& limits) {
  // RFC 9112 section 2.2: a server should ignore empty lines before the request line.
  std::size_t start = 0;
  while (buffer.substr(start, 2) == kLineEnd) start += 2;

  const std::size_t head_end = buffer.find(kHeadEnd, start);
  if (head_end == std::string_view::npos) {
    if (buffer.size() - start > limits.max_header_bytes) {
      return failure(431, "request header fields too large");
    }
    return {};
  }
  if (head_end - start > limits.max_header_bytes) {
    return failure(431, "request header fields too large");
  }

  request = HttpRequest{};
  const std::string_view head = buffer.substr(start, head_end - start);
  const std::size_t line_end = head.find(kLineEnd);
  HttpParse error;
  if (!parse_request_line(head.substr(0, line_end), request, error)) return error;

  std::size_t content_length = 0;
  const std::string_view fields =
      line_end == std::string_view::npos ? "" : head.substr(line_end + 2);
  if (!parse_header_fields(fields, request, content_length, error)) return error;
  if (content_length > limits.max_body_bytes) {
    return failure(413,
                   "request body larger than " + std::to_string(limits.max_body_bytes) + " bytes");
  }

  const std::size_t body_start = head_end + kHeadEnd.size();
  if (buffer.size() - body_start < content_length) return {};
  request.body.assign(buffer.substr(body_start, content_length));

  const std::string_view connection = request.header("connection");
  request.keep_alive = request.minor_version == 1 ? !lists_token(connection, "close")
                                                  : lists_token(connection, "keep-alive");
  HttpParse parse;
  parse.status = Status::complete;
  parse.consumed = body_start + content_length;
  return parse;
}

}  // namespace bench::sim
