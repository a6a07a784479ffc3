#include "bench/util/stop_flag.hpp"

namespace bench {

StopFlag::Verdict StopFlag::note_signal(std::int64_t now_ms) noexcept {
  const auto now = static_cast<std::uint64_t>(now_ms < 0 ? 0 : now_ms);
  std::uint64_t word = word_.load();
  while (true) {
    if ((word & kMeasuring) == 0) return Verdict::exit_now;
    const std::uint64_t counted_ms = word >> kTimeShift;
    Verdict verdict = Verdict::stop;
    std::uint64_t next = (word & (kMeasuring | kStop | kForced)) | kStop | (now << kTimeShift);
    if ((word & kStop) != 0) {
      if (now < counted_ms + kSameSignalMs) return Verdict::same_signal;
      if ((word & kForced) != 0) return Verdict::exit_now;
      verdict = Verdict::force;
      next |= kForced;
    }
    if (word_.compare_exchange_weak(word, next)) return verdict;
  }
}

}  // namespace bench
