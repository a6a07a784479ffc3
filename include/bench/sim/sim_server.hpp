#pragma once
// The embedded OpenAI-compatible server. One thread runs one epoll event loop that serves
// every connection: HTTP/1.1 with keep-alive, chunked transfer encoding for streams.
//
// Endpoints: GET /v1/models; POST /v1/completions and /v1/chat/completions, streaming (SSE,
// a usage chunk when stream_options.include_usage is true, then data: [DONE]) and not.
// Prompt tokens are counted by a documented rule: the number of whitespace-separated words
// of the prompt (for chat, of every message's content, added up). Generated tokens are words
// too (" tok17"), so a chunk of k tokens carries k words.
// Errors are JSON bodies {"error": {"message", "type", "code"}} with the matching status.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "bench/sim/sim_options.hpp"

namespace bench::sim {

class SimServer {
 public:
  /// Threads it runs (its event loop): what a client on the same cores leaves it.
  static constexpr std::size_t kThreads = 1;

  /// Binds and listens (so port() is valid on return) and starts the serving thread.
  /// Throws std::runtime_error naming the address when binding fails.
  explicit SimServer(SimOptions options);
  /// Stops the loop, closes every connection and joins the thread.
  ~SimServer();
  SimServer(const SimServer&) = delete;
  SimServer& operator=(const SimServer&) = delete;

  std::uint16_t port() const;
  std::string base_url() const;  // "http://127.0.0.1:PORT"

  /// Requests fully served so far (any status). Safe to call from any thread.
  std::uint64_t requests_served() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench::sim
