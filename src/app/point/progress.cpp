#include "bench/app/point/progress.hpp"

#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "bench/util/process_memory.hpp"

namespace bench::app {

namespace {

constexpr auto kRefresh = std::chrono::milliseconds(250);

}  // namespace

bool progress_wanted(bool quiet) { return !quiet && ::isatty(STDERR_FILENO) == 1; }

Progress::Progress(std::ostream& out, const LiveCounters& live, ProgressPlan plan)
    : out_(out), live_(live), plan_(std::move(plan)), thread_([this] { run(); }) {}

Progress::~Progress() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  out_ << "\r\033[K" << std::flush;  // erase the line
}

std::string Progress::line(double elapsed_s) {
  const std::int64_t started = live_.started.load(std::memory_order_relaxed);
  const std::int64_t finished = live_.finished.load(std::memory_order_relaxed);
  const std::int64_t failed = live_.failed.load(std::memory_order_relaxed);
  const std::int64_t chunks = live_.text_chunks.load(std::memory_order_relaxed);
  const std::int64_t input_tokens = live_.input_tokens.load(std::memory_order_relaxed);
  const double dt = elapsed_s - last_s_;
  if (dt > 0) {
    // Live rates: output from the text chunks arriving (one token each unless known, so an
    // estimate, labelled "~"), input from the prompts of requests that ended.
    output_rate_ = static_cast<double>(chunks - last_chunks_) / dt;
    input_rate_ = static_cast<double>(input_tokens - last_input_tokens_) / dt;
    last_s_ = elapsed_s;
    last_chunks_ = chunks;
    last_input_tokens_ = input_tokens;
  }
  std::string done = plan_.total_requests > 0
                         ? fmt::format("{}/{} done", finished, plan_.total_requests)
                         : fmt::format("{} done", finished);
  std::string left;
  if (plan_.duration_s > 0) {
    left = fmt::format(", {:.0f} s left", std::max(0.0, plan_.duration_s - elapsed_s));
  }
  // The client's own memory, so a long run shows it stays flat.
  const std::optional<std::int64_t> rss = util::current_rss_bytes();
  const std::string memory =
      rss ? fmt::format(" | RSS {:.0f} MiB", static_cast<double>(*rss) / (1 << 20)) : "";
  return fmt::format(
      "{}{}{}, {} in flight, {} failed | ~{:.0f} output tok/s, ~{:.0f} total "
      "tok/s{} | {:.1f} s",
      plan_.label.empty() ? "" : plan_.label + ": ", done, left, started - finished, failed,
      output_rate_, output_rate_ + input_rate_, memory, elapsed_s);
}

void Progress::run() {
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, kRefresh, [this] { return stopping_; })) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out_ << "\r\033[K" << line(elapsed) << std::flush;
  }
}

}  // namespace bench::app
