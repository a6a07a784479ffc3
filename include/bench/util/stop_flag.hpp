#pragma once
// What SIGINT and SIGTERM have asked of bench, in one lock-free word: the only thing a signal
// handler may touch (POSIX.1-2017 2.4.3: a handler may use lock-free atomics and the
// async-signal-safe functions, nothing that locks or allocates). The handler in main.cpp calls
// note_signal(); the run reads the flag, and tells it when its measured phase begins.
//
// The rules (docs/when-things-go-wrong.md, "Signals and forced quits"):
// - Before the measured phase nothing has been measured: a first signal ends the process.
// - During it, the first signal asks the run to stop: no new request, in-flight ones get the
//   grace period, then the results are reported and written (interrupted).
// - Signals within kSameSignalMs of the one that counted count as one: GNU timeout sends its
//   SIGTERM to bench and then to its process group (coreutils src/timeout.c, send_sig on 0),
//   and a terminal's Ctrl-C reaches every process of the foreground group.
// - A later signal forces the quit: in-flight requests are cancelled at once and what was
//   measured is still written. One after that ends the process without results.
#include <atomic>
#include <cstdint>

namespace bench {

class StopFlag {
 public:
  /// What a signal asks for.
  enum class Verdict {
    exit_now,     // end the process now (before the measured phase, or after a forced quit)
    stop,         // the first: stop after the grace period, report and write
    same_signal,  // within kSameSignalMs of the one that counted: nothing more
    force,        // a later one: cancel in-flight requests now, report and write
  };
  static constexpr std::int64_t kSameSignalMs = 1000;

  /// Records a signal received at `now_ms` (CLOCK_MONOTONIC) and says what it asks for.
  /// Async-signal-safe: a compare-and-swap loop on the word, nothing else.
  Verdict note_signal(std::int64_t now_ms) noexcept;

  /// The measured phase has begun: from now on a first signal asks the run to stop rather than
  /// ending the process. Stays set.
  void begin_measuring() noexcept { word_.fetch_or(kMeasuring); }
  /// True once a stop was asked (by a signal, or by request()). Named as std::atomic<bool>'s
  /// load, which this flag replaced.
  bool load(std::memory_order order = std::memory_order_seq_cst) const noexcept {
    return (word_.load(order) & kStop) != 0;
  }
  /// True once a forced quit was asked: in-flight requests are cancelled without grace.
  bool forced(std::memory_order order = std::memory_order_seq_cst) const noexcept {
    return (word_.load(order) & kForced) != 0;
  }
  /// Asks a stop (with `force`, a forced quit) as a signal would, without one.
  void request(bool force = false) noexcept { word_.fetch_or(kStop | (force ? kForced : 0)); }

 private:
  // Bits 0-2 the state; the rest the CLOCK_MONOTONIC millisecond of the signal that counted.
  static constexpr std::uint64_t kMeasuring = 1;
  static constexpr std::uint64_t kStop = 2;
  static constexpr std::uint64_t kForced = 4;
  static constexpr int kTimeShift = 3;

  std::atomic<std::uint64_t> word_{0};
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
};

}  // namespace bench
