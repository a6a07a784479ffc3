#include "bench/record/http_framing.hpp"

#include <algorithm>
#include <charconv>

#include "bench/util/text.hpp"

namespace bench::record {

std::optional<std::string_view> header_value(std::string_view head, std::string_view lower_name) {
  std::size_t at = head.find("\r\n");
  while (at != std::string_view::npos && at + 2 < head.size()) {
    const std::size_t start = at + 2;
    const std::size_t end = head.find("\r\n", start);
    const std::string_view line =
        head.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    const std::size_t colon = line.find(':');
    if (colon != std::string_view::npos &&
        util::ascii_lowered(line.substr(0, colon)) == lower_name) {
      std::string_view value = line.substr(colon + 1);
      while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
        value.remove_prefix(1);
      while (!value.empty() && (value.back() == ' ' || value.back() == '\t'))
        value.remove_suffix(1);
      return value;
    }
    at = end;
  }
  return std::nullopt;
}

namespace {

std::optional<std::uint64_t> content_length(std::string_view head) {
  const auto value = header_value(head, "content-length");
  if (!value) return std::nullopt;
  std::uint64_t length = 0;
  const auto [end, error] = std::from_chars(value->data(), value->data() + value->size(), length);
  if (error != std::errc() || end != value->data() + value->size()) return std::nullopt;
  return length;
}

bool chunked(std::string_view head) {
  const auto value = header_value(head, "transfer-encoding");
  return value && util::ascii_lowered(*value).find("chunked") != std::string::npos;
}

// The status code of the head at the start of `head` ("HTTP/1.1 204 ..."); 0 when unreadable.
int status_code(std::string_view head) {
  if (head.size() < 12) return 0;
  return (head[9] - '0') * 100 + (head[10] - '0') * 10 + (head[11] - '0');
}

// A chunked body's data (RFC 9112 section 7.1: size line, data, CRLF, ..., a 0 size line), read
// by ResponseFramer's rules: a line ends at LF, a size line's extensions are ignored, and the
// line after a chunk's data is skipped whatever it holds. nullopt when it ends inside a chunk.
std::optional<std::string> dechunked(std::string_view coded) {
  std::string body;
  while (true) {
    const std::size_t line_end = coded.find('\n');
    if (line_end == std::string_view::npos) return std::nullopt;
    std::uint64_t size = 0;
    std::from_chars(coded.data(), coded.data() + line_end, size, 16);
    if (size == 0) return body;
    coded.remove_prefix(line_end + 1);
    if (coded.size() < size) return std::nullopt;
    body.append(coded.substr(0, size));
    coded.remove_prefix(size);
    const std::size_t data_end = coded.find('\n');
    if (data_end == std::string_view::npos) return std::nullopt;
    coded.remove_prefix(data_end + 1);
  }
}

}  // namespace

std::optional<std::string> response_body(std::string_view response) {
  while (true) {
    const std::size_t head_end = response.find("\r\n\r\n");
    if (head_end == std::string_view::npos) return std::nullopt;
    const std::string_view head = response.substr(0, head_end + 2);
    response.remove_prefix(head_end + 4);
    const int status = status_code(head);
    if (status >= 100 && status < 200) continue;  // a 100 Continue: the real response follows
    if (chunked(head)) return dechunked(response);
    if (const auto length = content_length(head)) {
      if (response.size() < *length) return std::nullopt;
      response = response.substr(0, static_cast<std::size_t>(*length));
    }
    return std::string(response);
  }
}

std::optional<std::size_t> request_length(std::string_view buffer) {
  const std::size_t head_end = buffer.find("\r\n\r\n");
  if (head_end == std::string_view::npos) return std::nullopt;
  const std::string_view head = buffer.substr(0, head_end + 2);
  const std::size_t total = head_end + 4 + content_length(head).value_or(0);
  if (buffer.size() < total) return std::nullopt;
  return total;
}

std::pair<std::string, std::string> request_line(std::string_view request) {
  const std::string_view line = request.substr(0, request.find("\r\n"));
  const std::size_t first = line.find(' ');
  const std::size_t second = line.find(' ', first == std::string_view::npos ? 0 : first + 1);
  if (first == std::string_view::npos || second == std::string_view::npos) return {};
  return {std::string(line.substr(0, first)),
          std::string(line.substr(first + 1, second - first - 1))};
}

void ResponseFramer::on_head_complete() {
  const std::string_view head = line_;
  // "HTTP/1.1 204 ...": 1xx, 204 and 304 have no body (RFC 9112 section 6.3, rule 1).
  const int status = status_code(head);
  const bool informational = status >= 100 && status < 200;
  if (head_request_ || status == 204 || status == 304) {
    state_ = State::done;
  } else if (informational) {
    state_ = State::head;  // a 100 Continue: the real response follows
  } else if (chunked(head)) {
    state_ = State::chunk_size;
  } else if (const auto length = content_length(head)) {
    remaining_ = *length;
    state_ = remaining_ == 0 ? State::done : State::length;
  } else {
    state_ = State::until_close;
  }
  line_.clear();
}

std::size_t ResponseFramer::feed(std::string_view bytes) {
  std::size_t used = 0;
  while (used < bytes.size() && state_ != State::done) {
    const std::string_view rest = bytes.substr(used);
    switch (state_) {
      case State::head: {
        // The head ends at the first CRLF CRLF, which may straddle two pieces.
        const std::size_t before = line_.size();
        line_.append(rest);
        const std::size_t end = line_.find("\r\n\r\n", before >= 3 ? before - 3 : 0);
        if (end == std::string::npos) return bytes.size();
        used += end + 4 - before;
        line_.resize(end + 4);
        on_head_complete();
        break;
      }
      case State::length: {
        const std::size_t take =
            static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, rest.size()));
        used += take;
        remaining_ -= take;
        if (remaining_ == 0) state_ = State::done;
        break;
      }
      case State::until_close: return bytes.size();
      case State::done: break;
      default: used += feed_chunked(rest); break;
    }
  }
  return used;
}

// Chunked transfer coding (RFC 9112 section 7.1): size line, data, CRLF, ..., a 0 size line,
// trailer lines, an empty line. Returns the bytes of `bytes` taken.
std::size_t ResponseFramer::feed_chunked(std::string_view bytes) {
  switch (state_) {
    case State::chunk_data: {
      const std::size_t take =
          static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, bytes.size()));
      remaining_ -= take;
      if (remaining_ == 0) state_ = State::chunk_crlf;
      return take;
    }
    case State::chunk_crlf:
    case State::chunk_size:
    case State::trailers: {
      const std::size_t newline = bytes.find('\n');
      if (newline == std::string_view::npos) {
        line_.append(bytes);
        return bytes.size();
      }
      line_.append(bytes.substr(0, newline));
      const std::string line = std::move(line_);
      line_.clear();
      if (state_ == State::chunk_crlf) {
        state_ = State::chunk_size;
      } else if (state_ == State::trailers) {
        if (line.empty() || line == "\r") state_ = State::done;
      } else {
        std::uint64_t size = 0;
        std::from_chars(line.data(), line.data() + line.size(), size, 16);
        remaining_ = size;
        state_ = size == 0 ? State::trailers : State::chunk_data;
      }
      return newline + 1;
    }
    default: return 0;
  }
}

}  // namespace bench::record
