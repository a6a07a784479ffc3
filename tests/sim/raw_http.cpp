#include "raw_http.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <stdexcept>

namespace bench::testing {

RawConnection::RawConnection(std::uint16_t port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    throw std::runtime_error("cannot connect to the test server");
  }
}

RawConnection::~RawConnection() { close(); }

void RawConnection::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void RawConnection::send(const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) throw std::runtime_error("send failed");
    sent += static_cast<std::size_t>(n);
  }
}

bool RawConnection::fill(int timeout_ms) {
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, timeout_ms) <= 0) return false;
  char chunk[65536];
  const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
  if (n <= 0) return false;
  buffer_.append(chunk, static_cast<std::size_t>(n));
  return true;
}

bool RawConnection::closed_by_peer(int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    char chunk[4096];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n == 0) return true;
    if (n < 0) return true;  // reset
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
  return false;
}

RawConnection::Ending RawConnection::read_to_end(std::string& bytes, int timeout_ms) {
  bytes += buffer_;
  buffer_.clear();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    char chunk[65536];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n == 0) return Ending::closed;
    if (n < 0) return errno == ECONNRESET ? Ending::reset : Ending::closed;
    bytes.append(chunk, static_cast<std::size_t>(n));
  }
  return Ending::timeout;
}

RawResponse RawConnection::read_response(int timeout_ms) {
  RawResponse response;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  auto remaining = [&] {
    return static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                deadline - std::chrono::steady_clock::now())
                                .count());
  };
  std::size_t head_end;
  while ((head_end = buffer_.find("\r\n\r\n")) == std::string::npos) {
    if (remaining() <= 0 || !fill(remaining())) return response;
  }
  const std::string head = buffer_.substr(0, head_end + 4);
  std::string lower = head;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::size_t at = head_end + 4;
  std::string body;
  if (lower.find("transfer-encoding: chunked") != std::string::npos) {
    response.chunked = true;
    while (true) {
      std::size_t line_end;
      while ((line_end = buffer_.find("\r\n", at)) == std::string::npos) {
        if (remaining() <= 0 || !fill(remaining())) return response;
      }
      const std::size_t size = std::stoul(buffer_.substr(at, line_end - at), nullptr, 16);
      while (buffer_.size() < line_end + 2 + size + 2) {
        if (remaining() <= 0 || !fill(remaining())) return response;
      }
      body += buffer_.substr(line_end + 2, size);
      at = line_end + 2 + size + 2;
      if (size == 0) break;
    }
  } else {
    std::size_t length = 0;
    const std::size_t header = lower.find("content-length:");
    if (header != std::string::npos) length = std::stoul(lower.substr(header + 15));
    while (buffer_.size() < at + length) {
      if (remaining() <= 0 || !fill(remaining())) return response;
    }
    body = buffer_.substr(at, length);
    at += length;
  }
  buffer_.erase(0, at);
  response.status = std::stoi(head.substr(9, 3));
  response.head = head;
  response.body = std::move(body);
  return response;
}

std::string post(const std::string& path, const std::string& json_body, bool keep_alive) {
  return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
         (keep_alive ? "" : "Connection: close\r\n") +
         "Content-Length: " + std::to_string(json_body.size()) + "\r\n\r\n" + json_body;
}

}  // namespace bench::testing
