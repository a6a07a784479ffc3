#pragma once
// A wire recording (docs/wire-corpus.md): HTTP exchanges as a server spoke them, written by
// `bench record` and served back by `bench serve-sim --replay`. One directory holds one
// recording; each exchange is three files named by its number:
//   NNNN.json      what, when and how: request line, shape, redacted headers, status, the time
//                  (ns after the request was sent) each read of the response arrived and where it
//                  ended in the bytes, and how the connection ended after it
//   NNNN.request   the request body, bytes as sent
//   NNNN.response  the response, bytes as received: status line, headers, framing and body
// The JSON file is written last, so a reader never sees an exchange without its bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace bench::wire {

inline constexpr int kFormatVersion = 1;

/// One read of the response: when it arrived (ns after the request's last byte was sent) and
/// the offset just past its last byte in the response bytes.
struct Read {
  std::int64_t at_ns = 0;
  std::size_t end = 0;
};

/// How the connection ended after this exchange.
struct Close {
  enum class How { open, fin, rst };  // open: the client closed it, or the recording ended
  How how = How::open;
  std::int64_t after_last_byte_ns = 0;  // fin/rst: this long after the response's last read
  // fin/rst: true when the server closed a connection it had let sit idle (a keep-alive
  // timeout: a request sent before then keeps it open); false when it closes after the response
  // whatever comes (llama.cpp). The recorder says idle when the close came 1 s or more after
  // the last byte (kIdleCloseNs).
  bool idle = false;
};

inline constexpr std::int64_t kIdleCloseNs = 1'000'000'000;

/// What a request is matched by when replayed: never its prompt text.
struct Shape {
  std::string method;   // "POST"
  std::string path;     // "/v1/completions", query removed
  bool stream = false;  // the JSON body's "stream" is true

  bool operator==(const Shape&) const = default;
};

struct Exchange {
  std::string name;             // "0007": the files' stem
  std::int64_t connection = 0;  // exchanges with the same number shared one TCP connection
  Shape shape;
  std::vector<std::pair<std::string, std::string>> request_headers;  // credentials redacted
  std::string request_body;
  int status = 0;           // the response's status code; 0 = no status line arrived
  std::string response;     // bytes as received
  std::vector<Read> reads;  // in order; the last one's end is response.size()
  Close close;
};

struct WireError {
  std::string message;  // names the directory or file and what is wrong
};

/// The shape of a request: its method, its path without the query, and whether its body is a
/// JSON object whose "stream" is true.
Shape shape_of(std::string_view method, std::string_view target, std::string_view body);

/// "POST /v1/completions stream" or "GET /v1/models": for messages.
std::string describe(const Shape& shape);

/// Writes one exchange into `dir` (which must exist), each file whole or not at all.
/// Throws std::runtime_error naming the file on failure.
void write_exchange(const std::string& dir, const Exchange& exchange);

/// Every exchange in `dir`, in the order of their names. An error names the file at fault; a
/// directory with no exchange is an error.
std::variant<std::vector<Exchange>, WireError> load_recording(const std::string& dir);

/// The status code of an HTTP/1.x status line at the start of `response`; 0 when there is none.
int status_of(std::string_view response);

}  // namespace bench::wire
