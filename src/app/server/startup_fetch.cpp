#include "bench/app/server/startup_fetch.hpp"

#include <fmt/format.h>

#include "bench/app/server/target.hpp"
#include "bench/util/redact.hpp"

namespace bench::app {

engine::EngineOptions startup_engine_options(engine::EngineOptions run,
                                             std::int64_t silence_limit_ms) {
  run.concurrency = 1;
  // engine::fetch's handler counts its first byte as its first token, so the engine's TTFT
  // limit is a limit on the silence before the answer's first byte, and the stall limit on
  // the silence after it.
  run.ttft_timeout_ms = silence_limit_ms;
  run.stall_timeout_ms = silence_limit_ms;
  return run;
}

namespace {

// Whether the silence limit of startup_engine_options cut the exchange.
bool cut_by_silence(const engine::FetchResult& result) {
  return result.end.error == metrics::ErrorClass::ttft_timeout ||
         result.end.error == metrics::ErrorClass::stall;
}

// What the limit cut, said in one line: `shown_url` is the URL as shown (credentials hidden).
std::string silent_server_text(const std::string& what, const std::string& shown_url,
                               const engine::FetchResult& result, std::int64_t silence_limit_ms) {
  const std::string limit = fmt::format("{:g} s (--startup-timeout)", silence_limit_ms / 1000.0);
  if (result.end.error == metrics::ErrorClass::stall) {
    return fmt::format(
        "{} {}: the server began its answer, then sent nothing for {}: it hung "
        "mid-answer",
        what, shown_url, limit);
  }
  return fmt::format(
      "{} {}: no answer for {}: the server accepted the connection and stayed "
      "silent (hung, or still loading its model: then raise --startup-timeout)",
      what, shown_url, limit);
}

}  // namespace

engine::FetchResult startup_fetch(const std::string& url, const std::vector<std::string>& headers,
                                  const std::string& body, const engine::EngineOptions& engine,
                                  std::size_t max_body_bytes) {
  engine::FetchResult result = engine::fetch(url, headers, body, engine, max_body_bytes);
  if (cut_by_silence(result)) {
    throw RunError(silent_server_text(body.empty() ? "GET" : "POST",
                                      util::url_with_secrets_hidden(url), result,
                                      engine.ttft_timeout_ms));
  }
  return result;
}

}  // namespace bench::app
