#pragma once
// One whole HTTP exchange (GET or POST) through the same engine the benchmark uses, for the
// few requests bench makes outside the measured run: model discovery and the readiness probe.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/engine/engine.hpp"
#include "bench/util/stop_flag.hpp"

namespace bench::engine {

struct FetchResult {
  long http_status = 0;  // 0 when no response arrived
  std::string content_type;
  std::string body;  // capped at max_body_bytes
  TransferEnd end;   // transport outcome
};

/// Sends one request and collects the response. POST when `body` is non-empty. When `stop`
/// becomes true the exchange is cancelled (after options.grace_ms), as Engine::run does. The
/// response's first body byte counts as its first token: options.ttft_timeout_ms limits the
/// silence before it, options.stall_timeout_ms the silence after it.
FetchResult fetch(const std::string& url, const std::vector<std::string>& headers,
                  const std::string& body, const EngineOptions& options,
                  std::size_t max_body_bytes = 4 << 20, const StopFlag* stop = nullptr);

}  // namespace bench::engine
