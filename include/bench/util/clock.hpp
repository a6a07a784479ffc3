#pragma once
// One clock for every duration bench measures: steady_clock, stored as int64 nanoseconds.
// The wall clock is used only for labels in output (see wall_clock_iso8601).
#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <string>

namespace bench {

using Clock = std::chrono::steady_clock;

/// Nanoseconds on the steady clock since an arbitrary (per-boot) epoch.
inline std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

// The one owner of bench's unit conversions of time: every module converts here (the functions
// are inline, so a module that links nothing, like metrics or schedule, may use them too).
inline constexpr std::int64_t kNsPerUs = 1'000;
inline constexpr std::int64_t kNsPerMs = 1'000'000;
inline constexpr std::int64_t kNsPerSec = 1'000'000'000;

// Between units as doubles, for figures and their text.
inline double ns_to_ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }
inline double ns_to_s(std::int64_t ns) { return static_cast<double>(ns) / 1e9; }
inline double s_to_ms(double s) { return s * 1e3; }
inline double ms_to_s(double ms) { return ms / 1e3; }
inline double us_to_ms(double us) { return us / 1e3; }
inline double us_to_s(double us) { return us / 1e6; }

/// Milliseconds rounded to the microsecond: what results files write for a time (three decimals,
/// no float noise such as 12.300000000000001).
inline double ns_to_ms_rounded_to_us(std::int64_t ns) {
  return std::round(static_cast<double>(ns) / 1e3) / 1e3;
}

// From a double (a flag's or a file's seconds or milliseconds) to a whole count: `_truncated`
// drops the fraction toward zero as a cast does, `_rounded` takes the nearest (std::llround).
// Each caller keeps the one it always had, so every figure and schedule stays the same.
inline std::int64_t s_to_ns_truncated(double s) { return static_cast<std::int64_t>(s * 1e9); }
inline std::int64_t s_to_ms_truncated(double s) { return static_cast<std::int64_t>(s * 1e3); }
inline std::int64_t ms_to_ns_truncated(double ms) { return static_cast<std::int64_t>(ms * 1e6); }
inline std::int64_t s_to_ns_rounded(double s) { return std::llround(s * 1e9); }
inline std::int64_t ms_to_ns_rounded(double ms) { return std::llround(ms * 1e6); }

/// A timespec (clock_gettime's, a socket's receive stamp) as nanoseconds, and back (timerfd's).
inline std::int64_t timespec_to_ns(const timespec& time) {
  return static_cast<std::int64_t>(time.tv_sec) * kNsPerSec + time.tv_nsec;
}
inline timespec ns_to_timespec(std::int64_t ns) {
  timespec time{};
  time.tv_sec = static_cast<std::time_t>(ns / kNsPerSec);
  time.tv_nsec = static_cast<long>(ns % kNsPerSec);
  return time;
}

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
