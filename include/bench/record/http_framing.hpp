#pragma once
// Where one HTTP/1.1 message ends in a byte stream (RFC 9112 section 6), for the recording
// proxy: it forwards bytes unchanged and only needs to know which exchange each byte belongs to.
// Requests are framed by Content-Length (bench and every OpenAI client send one); responses by
// Content-Length, chunked transfer coding, or the close of the connection.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bench::record {

/// The length of the whole request (head and body) at the start of `buffer`, once all of it is
/// there; nullopt while more bytes are needed. A chunked request body is not framed: its
/// length is then reported as the head alone (the body's bytes are still forwarded).
std::optional<std::size_t> request_length(std::string_view buffer);

/// The request line's method and target ("POST", "/v1/completions").
std::pair<std::string, std::string> request_line(std::string_view request);

/// The value of the header named `lower_name` (written in lower case; names compare ignoring
/// ASCII case) in a message's head (its start line, then its header lines), trimmed of spaces
/// and tabs; nullopt when the head has no such header.
std::optional<std::string_view> header_value(std::string_view head, std::string_view lower_name);

/// The body of a whole response as ResponseFramer framed it (head, framing, body): after the
/// head of its final response (a 100 Continue before it skipped), its chunked coding undone, cut
/// at its Content-Length. nullopt when the bytes end before the head or inside a chunk.
std::optional<std::string> response_body(std::string_view response);

/// Reads a response as it arrives and says where it ends. feed() may be given the bytes in any
/// pieces; it consumes up to the response's end and no further.
class ResponseFramer {
 public:
  /// `head_request`: the response to a HEAD request has no body whatever its headers say.
  explicit ResponseFramer(bool head_request = false) : head_request_(head_request) {}

  /// Takes bytes of the response; returns how many belong to it (fewer than given only when
  /// the response ended inside them).
  std::size_t feed(std::string_view bytes);
  bool complete() const { return state_ == State::done; }
  /// The response's body runs until the connection closes (no length, not chunked).
  bool until_close() const { return state_ == State::until_close; }

 private:
  enum class State {
    head,
    length,
    chunk_size,
    chunk_data,
    chunk_crlf,
    trailers,
    until_close,
    done
  };
  void on_head_complete();
  std::size_t feed_chunked(std::string_view bytes);

  bool head_request_ = false;
  State state_ = State::head;
  std::string line_;             // the head so far, or the current chunk-size / trailer line
  std::uint64_t remaining_ = 0;  // body or chunk bytes still to come
};

}  // namespace bench::record
