#pragma once
// A deliberately small blocking HTTP/1.1 client for testing the embedded server byte for byte:
// it sends exactly what it is given and decodes exactly one response (Content-Length or chunked).
#include <cstdint>
#include <string>

namespace bench::testing {

struct RawResponse {
  int status = 0;    // 0 when no complete response arrived
  std::string head;  // status line and headers, as received
  std::string body;  // after chunked decoding
  bool chunked = false;
};

class RawConnection {
 public:
  explicit RawConnection(std::uint16_t port);
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  void send(const std::string& bytes);
  /// Reads one whole response, waiting up to `timeout_ms` for its bytes.
  RawResponse read_response(int timeout_ms = 5000);
  /// True when the server closed the connection (EOF) within `timeout_ms`, buffered bytes aside.
  bool closed_by_peer(int timeout_ms = 2000);
  enum class Ending { closed, reset, timeout };
  /// Reads until the server closes (FIN), resets (RST) or `timeout_ms` passes; every byte read,
  /// buffered ones included, is appended to `bytes`.
  Ending read_to_end(std::string& bytes, int timeout_ms = 5000);
  void close();

 private:
  bool fill(int timeout_ms);  // reads more bytes into buffer_; false on EOF or timeout
  int fd_ = -1;
  std::string buffer_;
};

/// A POST with a JSON body and Content-Length.
std::string post(const std::string& path, const std::string& json_body, bool keep_alive = true);

}  // namespace bench::testing
