// Connections the server closes under a request: the socket each transfer uses, the closes curl
// makes (and whether the server had closed first), the server's own keep-alive promise, and the
// one resend of a request written into a connection the server had closed
// (connection_watch.hpp says why).
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bench/util/text.hpp"
#include "engine_impl.hpp"

namespace bench::engine {

namespace {

// Whether the peer has closed the connection on `fd` (a FIN, read as end of stream, or an RST),
// without taking any byte from it.
bool peer_closed(curl_socket_t fd) {
  const int saved_errno = errno;
  char byte = 0;
  const ssize_t n = ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  const bool closed = n == 0 || (n < 0 && (errno == ECONNRESET || errno == EPIPE));
  errno = saved_errno;
  return closed;
}

// The seconds of a `Keep-Alive: timeout=N, max=M` header line (RFC 9110 leaves Keep-Alive to
// HTTP/1.0's practice; its parameters are in the retired RFC 2068, 19.7.1.1); -1 when the line
// is not one or names no timeout.
long keep_alive_timeout_s(std::string_view line) {
  constexpr std::string_view kName = "keep-alive:";
  if (!util::starts_with_ignoring_case(line, kName)) return -1;
  const std::size_t at = line.find("timeout=");
  if (at == std::string_view::npos) return -1;
  const char* first = line.data() + at + 8;
  long seconds = -1;
  const auto [end, error] = std::from_chars(first, line.data() + line.size(), seconds);
  (void)end;
  return error == std::errc() ? seconds : -1;
}

// Results of a request written on a connection that was gone before any answer: curl could not
// write it (the server's RST had come), read nothing back, or read an end of stream.
bool lost_before_answer(CURLcode result) {
  return result == CURLE_SEND_ERROR || result == CURLE_RECV_ERROR || result == CURLE_GOT_NOTHING;
}

}  // namespace

// CURLOPT_HEADERFUNCTION: a header line of the response. Only two facts are taken: that an
// answer began (a request that got one is never sent again), and the server's keep-alive
// promise, so pooled connections are retired a second before the server would close them.
size_t Engine::Impl::on_header(char* data, size_t size, size_t count, void* userp) {
  auto* transfer = static_cast<Transfer*>(userp);
  const size_t bytes = size * count;
  transfer->response_started = true;
  const long timeout_s = keep_alive_timeout_s(std::string_view(data, bytes));
  if (timeout_s > 0) {
    Impl& engine = *transfer->engine;
    engine.idle_retire_s = std::max(0L, std::min(engine.idle_retire_s, timeout_s - 2));
  }
  return bytes;
}

// CURLOPT_CLOSESOCKETFUNCTION: curl closes a connection's socket. Looked at first: whether the
// server had closed it, and whether a request was waiting on it for an answer.
int Engine::Impl::on_close_socket(void* clientp, curl_socket_t fd) {
  auto* self = static_cast<Impl*>(clientp);
  if (!self->shutting_down && fd >= 0) {
    const bool by_server = peer_closed(fd);
    const auto index = static_cast<std::size_t>(fd);
    if (index < self->socket_owner.size() && self->socket_owner[index] != nullptr) {
      Transfer& owner = *self->socket_owner[index];
      self->socket_owner[index] = nullptr;
      if (by_server && owner.in_flight && !owner.response_started) ++owner.lost_attempts;
    }
    self->connection_watch.closed(fd, by_server, now_ns());
  }
  return ::close(fd);
}

void Engine::Impl::note_socket(Transfer& transfer, curl_socket_t fd) {
  if (fd < 0) return;
  const auto index = static_cast<std::size_t>(fd);
  if (index >= socket_owner.size()) socket_owner.resize(index + 1, nullptr);
  socket_owner[index] = &transfer;
  transfer.fd = fd;
}

// The transfer ended (or starts over): its socket, if still open, is an idle pooled connection.
void Engine::Impl::forget_socket(Transfer& transfer) {
  if (transfer.fd < 0) return;
  const auto index = static_cast<std::size_t>(transfer.fd);
  if (index < socket_owner.size() && socket_owner[index] == &transfer) {
    socket_owner[index] = nullptr;
  }
  transfer.fd = CURL_SOCKET_BAD;
}

// A request written on a reused connection that the server had closed before any byte of an
// answer came was never read by the server: it is sent once more, on a new connection, in the
// same transfer (its handler has heard nothing, its deadlines and start stay those of the first
// attempt). Once only: a new connection that fails the same way is the server failing.
bool Engine::Impl::resend_on_new_connection(Transfer& transfer, CURLcode result, long status,
                                            long new_connections) {
  if (!lost_before_answer(result) || new_connections > 0 || status > 0 ||
      transfer.response_started || transfer.body_bytes > 0 || transfer.aborted_by_handler ||
      transfer.resends > 0) {
    return false;
  }
  CURL* easy = transfer.easy.get();
  curl_multi_remove_handle(multi.get(), easy);
  forget_socket(transfer);
  ++transfer.resends;
  transfer.attempt_start_ns = now_ns();
  curl_easy_setopt(easy, CURLOPT_FRESH_CONNECT, 1L);
  const CURLMcode code = curl_multi_add_handle(multi.get(), easy);
  if (code != CURLM_OK) {
    throw std::runtime_error(std::string("curl_multi_add_handle: ") + curl_multi_strerror(code));
  }
  return true;
}

// What a finished transfer says of its connection: the attempts it lost to the server's closes
// (the engine's resend and curl's own, which shows only as a lost attempt: max, not sum, since
// the close of a resent attempt may be seen too), and, for the watch, when its connection went
// idle and whether a reuse held.
void Engine::Impl::note_connection_outcome(Transfer& transfer, TransferEnd& end, long status) {
  end.connection_retries = std::max(transfer.resends, transfer.lost_attempts);
  stats.connection_retries += end.connection_retries;
  if (status <= 0) return;
  connection_watch.response_ended(transfer.fd, end.end_ns);
  if (end.new_connections == 0 && end.connection_retries == 0) connection_watch.reused_cleanly();
}

}  // namespace bench::engine
