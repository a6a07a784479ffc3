#include "bench/app/server/readiness.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <thread>

#include <fmt/format.h>

#include "bench/app/server/startup_fetch.hpp"
#include "bench/app/server/target.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/util/clock.hpp"

namespace bench::app {

namespace {

constexpr std::size_t kReasonChars = 120;  // of a server's message in a "not ready" line

std::string seconds_text(std::int64_t ms) { return fmt::format("{:g} s", ms / 1000.0); }

// One readiness ask, a start-up exchange (startup_fetch: a silent server ends the run). Says on
// `err` what it waits for once it has waited kSilenceNoticeMs with no answer: until the silence
// limit, a hung server and a slow one look alike. The ask runs on a thread of its own so that
// this one, which owns `err`, can say so meanwhile.
engine::FetchResult ask_models(const ReadyWait& wait, const std::string& url, std::ostream& err) {
  auto pending = std::async(std::launch::async,
                            [&] { return startup_fetch(url, *wait.headers, "", wait.engine); });
  const std::string shown = util::url_with_secrets_hidden(url);
  if (pending.wait_for(std::chrono::milliseconds(kSilenceNoticeMs)) != std::future_status::ready &&
      !wait.quiet) {
    err << fmt::format(
        "bench: waiting for GET {}: no answer after {}{}\n", shown, seconds_text(kSilenceNoticeMs),
        wait.engine.ttft_timeout_ms > 0 ? fmt::format(" (a silent server is given up on after {}, "
                                                      "--startup-timeout)",
                                                      seconds_text(wait.engine.ttft_timeout_ms))
                                        : std::string());
    err.flush();
  }
  return pending.get();  // startup_fetch's RunError, if any, is thrown here
}

}  // namespace

std::optional<std::string> not_ready_reason(const engine::FetchResult& answer,
                                            const util::Redactor& redactor) {
  using metrics::ErrorClass;
  if (answer.end.error == ErrorClass::connect_refused) return "connection refused";
  if (answer.end.error == ErrorClass::connect_timeout) return "connect timed out";
  const long status = answer.http_status;
  // A 503 whose answer did not arrive whole (a body past the cap, a reset) is a server answering
  // in a way waiting will not mend: the stages after this one say what.
  if (answer.end.error != ErrorClass::none) return std::nullopt;
  if (status != 502 && status != 503 && status != 504) return std::nullopt;
  std::string message = redactor.redact(protocol::error_message_from_body(answer.body));
  std::replace(message.begin(), message.end(), '\n', ' ');
  if (message.size() > kReasonChars) message = message.substr(0, kReasonChars) + "...";
  return fmt::format("HTTP {}{}{}", status, message.empty() ? "" : ": ", message);
}

void wait_until_ready(const ReadyWait& wait, std::ostream& err) {
  const std::string url = models_url(wait.base_url);
  const std::string shown = util::url_with_secrets_hidden(wait.base_url);
  const std::int64_t start_ns = now_ns();
  const std::int64_t limit_ns = wait.ready_timeout_ms * kNsPerMs;
  std::int64_t next_line_ns = start_ns + kReadyProgressMs * kNsPerMs;
  bool waiting = false;
  for (;;) {
    const std::optional<std::string> reason =
        not_ready_reason(ask_models(wait, url, err), *wait.redactor);
    const std::int64_t waited_ns = now_ns() - start_ns;
    if (!reason || wait.ready_timeout_ms == 0) {
      if (waiting)
        err << fmt::format("bench: {} is ready, after {:.0f} s\n", shown, ns_to_s(waited_ns));
      return;
    }
    if (waited_ns >= limit_ns) {
      throw RunError(fmt::format("{} was still not ready after {} (--ready-timeout): {}", shown,
                                 seconds_text(wait.ready_timeout_ms), *reason));
    }
    if (!waiting) {
      err << fmt::format(
          "bench: {} is not ready ({}): waiting up to {} for it "
          "(--ready-timeout; Ctrl-C stops)\n",
          shown, *reason, seconds_text(wait.ready_timeout_ms));
      waiting = true;
    } else if (!wait.quiet && now_ns() >= next_line_ns) {
      err << fmt::format("bench: still waiting for {}: {} ({:.0f} s of {})\n", shown, *reason,
                         ns_to_s(waited_ns), seconds_text(wait.ready_timeout_ms));
      next_line_ns += kReadyProgressMs * kNsPerMs;
    }
    err.flush();
    const std::int64_t pause_ns = std::min(kReadyRetryMs * kNsPerMs, limit_ns - waited_ns);
    std::this_thread::sleep_for(std::chrono::nanoseconds(pause_ns));
  }
}

}  // namespace bench::app
