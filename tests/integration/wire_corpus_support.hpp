#pragma once
// Helpers of the wire-corpus tests: the recordings found at test time, a raw HTTP/1.1 exchange
// over loopback that reads a response to its end and then watches how the connection ends.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/record/http_framing.hpp"
#include "bench/util/clock.hpp"
#include "bench/wire/recording.hpp"

namespace bench::testing {

/// Every recording directory of the corpus, found now: a new one needs no new test code.
inline std::vector<std::string> corpus_recordings() {
  std::vector<std::string> dirs;
  for (const auto& entry : std::filesystem::directory_iterator(BENCH_TEST_DATA_DIR "/wire")) {
    if (entry.is_directory()) dirs.push_back(entry.path().string());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

inline std::vector<wire::Exchange> load_or_empty(const std::string& dir) {
  auto loaded = wire::load_recording(dir);
  if (auto* exchanges = std::get_if<std::vector<wire::Exchange>>(&loaded)) return *exchanges;
  return {};
}

inline std::uint16_t port_of(const std::string& base_url) {
  return static_cast<std::uint16_t>(std::stoi(base_url.substr(base_url.rfind(':') + 1)));
}

struct RawExchange {
  std::string response;                                        // bytes up to the response's end
  enum class End { open, fin, rst, timeout } end = End::open;  // what followed, within the wait
};

/// Sends `request` on a new connection, reads the response to its end, then waits up to
/// `watch_close_ms` for the connection to end (0: does not wait).
inline RawExchange raw_exchange(std::uint16_t port, const std::string& request, int watch_close_ms,
                                bool head_request = false) {
  RawExchange result;
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    result.end = RawExchange::End::rst;
    return result;
  }
  (void)!::write(fd, request.data(), request.size());
  record::ResponseFramer framer(head_request);
  char buffer[65536];
  const auto wait_readable = [&](int ms) {
    pollfd watch{fd, POLLIN, 0};
    return ::poll(&watch, 1, ms) > 0;
  };
  while (!framer.complete()) {
    if (!wait_readable(10'000)) {
      result.end = RawExchange::End::timeout;
      ::close(fd);
      return result;
    }
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got <= 0) {
      result.end = got == 0 ? RawExchange::End::fin : RawExchange::End::rst;
      ::close(fd);
      return result;
    }
    const std::string_view bytes(buffer, static_cast<std::size_t>(got));
    result.response.append(bytes.substr(0, framer.feed(bytes)));
  }
  if (watch_close_ms > 0 && wait_readable(watch_close_ms)) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    result.end = got == 0                         ? RawExchange::End::fin
                 : got < 0 && errno == ECONNRESET ? RawExchange::End::rst
                                                  : RawExchange::End::open;
  }
  ::close(fd);
  return result;
}

/// The request an exchange recorded, as bytes to send again.
inline std::string recorded_request(const wire::Exchange& exchange) {
  std::string request = exchange.shape.method + " " + exchange.shape.path + " HTTP/1.1\r\n";
  request += "Host: 127.0.0.1\r\n";
  if (!exchange.request_body.empty() || exchange.shape.method == "POST") {
    request += "Content-Type: application/json\r\nContent-Length: " +
               std::to_string(exchange.request_body.size()) + "\r\n";
  }
  return request + "\r\n" + exchange.request_body;
}

}  // namespace bench::testing
