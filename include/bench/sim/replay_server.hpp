#pragma once
// `bench serve-sim --replay DIR`: serves a wire recording (bench/wire/recording.hpp) back. Each
// request is matched by its shape (method, path, whether it streams; never its prompt) to the
// recorded exchanges of that shape, taken in turn, and answered with the recorded response's
// bytes, read by read, each at its recorded time after the request arrived (divided by the
// replay speed). Then the connection ends as it did: left open, or closed with a FIN or an RST
// that long after the last byte; a close the server made after the response is made whatever
// the client sends meanwhile (the request is left unread, as llama.cpp does), an idle close only
// when no request comes first. A request of a shape never recorded gets a 404 naming it.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/wire/recording.hpp"

namespace bench::sim {

struct ReplayOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;  // 0 = any free port
  double speed = 1.0;      // recorded times are divided by this (2 = twice as fast)
  // --trace: the replay's truth log, one JSON line per response played whole, with the time each
  // recorded read was handed to the socket (docs/wire-corpus.md). Empty: none.
  std::string trace_path;
};

class ReplayServer {
 public:
  /// Binds, listens and starts its thread. Throws std::runtime_error naming the address, or the
  /// truth log's path when it cannot be created.
  ReplayServer(std::vector<wire::Exchange> exchanges, ReplayOptions options);
  ~ReplayServer();
  ReplayServer(const ReplayServer&) = delete;
  ReplayServer& operator=(const ReplayServer&) = delete;

  std::uint16_t port() const;
  std::string base_url() const;
  /// Requests answered so far (recorded or 404). Safe from any thread.
  std::uint64_t requests_served() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench::sim
