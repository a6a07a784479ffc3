#pragma once
// What the engine learns from the connections the server closes, and what it decides from it.
// Internal to the engine module.
//
// A server may promise keep-alive and close anyway. llama.cpp's llama-server answers a stream
// with `Keep-Alive: timeout=5, max=100`, then closes the socket: its FIN comes 8-90 us after the
// stream's last chunk. A request written on that connection inside the window goes into a socket
// the server has closed, and curl fails it ("Failed sending data to the peer"). The engine sends
// such a request once more on a new connection (transfers.cpp), and once the server has closed
// kClosesToStopReuse connections in a row soon after their response, it stops reusing
// connections to it for the rest of the run: one new connection per request, as the server
// wants, and no request written into a closing socket.
#include <cstdint>
#include <vector>

namespace bench::engine {

class ConnectionWatch {
 public:
  // A close the server made this soon after a connection's last response counts as a close
  // "after the response": no server's idle timeout is this short (uvicorn's, vLLM's and
  // SGLang's, is 5 s), so it is not an idle close.
  static constexpr std::int64_t kPromptCloseNs = 1'000'000'000;
  static constexpr int kClosesToStopReuse = 3;

  /// A response ended on socket `fd` at `end_ns`: its connection is idle from then.
  void response_ended(int fd, std::int64_t end_ns);
  /// A request reused a connection and got its answer: the server keeps connections.
  void reused_cleanly();
  /// curl closes socket `fd` at `now_ns`; `by_server` when the server had closed it first.
  void closed(int fd, bool by_server, std::int64_t now_ns);

  bool reuse_stopped() const { return reuse_stopped_; }
  /// Connections the server closed within kPromptCloseNs of their last response.
  std::int64_t prompt_closes() const { return prompt_closes_; }
  /// Of the closes that stopped reuse, the latest after its response (an upper bound: the
  /// engine sees a close when curl next looks at the connection, not when its FIN came).
  std::int64_t stopping_close_idle_ns() const { return stopping_close_idle_ns_; }

 private:
  std::vector<std::int64_t> idle_since_ns_;  // by fd; -1: no response ended on it yet
  int streak_ = 0;                           // prompt closes since a clean reuse
  std::int64_t streak_idle_ns_ = 0;          // the latest of them after its response
  std::int64_t prompt_closes_ = 0;
  bool reuse_stopped_ = false;
  std::int64_t stopping_close_idle_ns_ = 0;
};

}  // namespace bench::engine
