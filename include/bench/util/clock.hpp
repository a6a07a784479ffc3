#pragma once
// One clock for every duration bench measures: steady_clock, stored as int64 nanoseconds.
// The wall clock is used only for labels in output (see wall_clock_iso8601).
#include <chrono>
#include <cstdint>
#include <string>

namespace bench {

using Clock = std::chrono::steady_clock;

/// Nanoseconds on the steady clock since an arbitrary (per-boot) epoch.
inline std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

inline constexpr std::int64_t kNsPerMs = 1'000'000;
inline constexpr std::int64_t kNsPerSec = 1'000'000'000;

inline double ns_to_ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }
inline double ns_to_s(std::int64_t ns) { return static_cast<double>(ns) / 1e9; }

/// Nanoseconds since the Unix epoch on the wall clock: only to wait for a time given by the
/// user (--start-at) and to place the clocks of shards on other hosts against each other.
inline std::int64_t wall_clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// Current wall-clock time as "YYYY-MM-DDTHH:MM:SSZ", for labelling results only.
std::string wall_clock_iso8601();

}  // namespace bench
