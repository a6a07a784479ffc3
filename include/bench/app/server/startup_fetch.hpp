#pragma once
// The exchanges bench has with a server before its measured phase (model discovery, what the
// server says of itself, its tokenizer, the per-chunk usage probe, the answer check), and the
// rule that keeps a hung server from holding a run in silence: each has its own silence limit
// (--startup-timeout: no byte for that long, before the answer's first byte or between two), and
// a start-up exchange the limit cut ends the run in one line naming the URL (exit 3). A slow
// answer that keeps sending is not cut; the whole exchange stays under --request-timeout.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/engine/engine.hpp"
#include "bench/engine/fetch.hpp"

namespace bench::app {

/// The engine options of start-up exchanges: the run's (TLS, connect and whole-request limits)
/// on one connection, with `silence_limit_ms` (--startup-timeout; 0 = none) before the first
/// byte and between bytes.
engine::EngineOptions startup_engine_options(engine::EngineOptions run,
                                             std::int64_t silence_limit_ms);

/// One start-up exchange through engine::fetch (POST when `body` is not empty). Throws RunError
/// when the silence limit cut it ("GET URL: no answer for 10 s (--startup-timeout): the server
/// accepted the connection and stayed silent ..."); any other outcome is the caller's to judge.
engine::FetchResult startup_fetch(const std::string& url, const std::vector<std::string>& headers,
                                  const std::string& body, const engine::EngineOptions& engine,
                                  std::size_t max_body_bytes = 4 << 20);

}  // namespace bench::app
