#pragma once
// Waiting for a server that is not ready yet, as CI starts it: the server and bench start
// together, and the server refuses connections (vLLM and TGI listen only once the model is
// loaded) or answers 503 (llama.cpp's "Loading model") for minutes. bench asks GET /v1/models
// until the server answers anything else, for up to --ready-timeout (vLLM's and SGLang's
// --ready-check-timeout-sec, whose default of 600 s it keeps), saying what it waits for every few
// seconds. A server that accepts and stays silent is not "not ready" but hung: the start-up
// silence limit (startup_fetch.hpp) ends the run then, and bench says on stderr what it waits
// for once it has waited kSilenceNoticeMs.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "bench/engine/engine.hpp"
#include "bench/engine/fetch.hpp"
#include "bench/util/redact.hpp"

namespace bench::app {

inline constexpr std::int64_t kSilenceNoticeMs = 2'000;  // "waiting for GET ..." after this
inline constexpr std::int64_t kReadyRetryMs = 1'000;     // between two asks of a server not ready
inline constexpr std::int64_t kReadyProgressMs = 5'000;  // between two "still waiting" lines

/// Why an answer to the readiness ask says the server is not ready yet: a refused connection or
/// a connect timeout (nothing listens yet), HTTP 502, 503 or 504 answered whole (loading, or a
/// proxy before it); nullopt when it is ready, or failed in a way waiting cannot mend (a name that
/// does not resolve, TLS, a 401): the stages after it say those.
std::optional<std::string> not_ready_reason(const engine::FetchResult& answer,
                                            const util::Redactor& redactor);

struct ReadyWait {
  std::string base_url;                               // the server's root
  const std::vector<std::string>* headers = nullptr;  // the run's
  engine::EngineOptions engine;                       // startup_engine_options
  const util::Redactor* redactor = nullptr;
  std::int64_t ready_timeout_ms = 0;  // --ready-timeout; 0: ask once, never wait
  bool quiet = false;                 // --quiet: only the first "not ready" line and the last
};

/// Returns once the server answered its readiness ask as a ready server does (or failed in a
/// way waiting cannot mend, or is not ready and ready_timeout_ms is 0). Throws RunError when it
/// was still not ready after ready_timeout_ms, or stayed silent past the start-up silence limit.
void wait_until_ready(const ReadyWait& wait, std::ostream& err);

}  // namespace bench::app
