#include "bench/schedule/arrival.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench/schedule/load_mode.hpp"
#include "bench/schedule/portable_random.hpp"
#include "bench/util/clock.hpp"

namespace bench::schedule {
namespace {

// XORed into the seed so the schedule's stream differs from the prompt generator's, which
// seeds std::mt19937_64 with the plain --seed.
constexpr std::uint64_t kScheduleStream = 0x7363686564756c65ULL;  // "schedule"
constexpr double kNsPerS = kNsPerSec;  // the schedule computes in double nanoseconds
// Below INT64_MAX (9.22e18) with room for rounding: about 285 years.
constexpr double kMaxOffsetNs = 9.0e18;

std::string show(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

[[noreturn]] void reject(const std::string& message) { throw std::invalid_argument(message); }

bool has_ramp(const ArrivalOptions& options) { return options.ramp.strategy != RampStrategy::none; }

// vLLM: "when burstiness tends to infinity, the delay time becomes constant".
bool gaps_are_constant(const ArrivalOptions& options) {
  return options.process == ArrivalProcess::constant || std::isinf(options.burstiness);
}

std::int64_t to_offset_ns(double ns) {
  if (!(ns <= kMaxOffsetNs)) {
    reject("--request-rate: the schedule runs past 285 years of int64 nanoseconds (offset " +
           show(ns / kNsPerS) + " s); use a higher rate or fewer requests");
  }
  return static_cast<std::int64_t>(std::llround(ns));
}

// Lambda^-1(u): the time at which the ramp's cumulative rate reaches u, over a ramp of
// `ramp_s` seconds. Past the ramp's end the rate stays at end_rps.
double ramp_time_at(const RampUp& ramp, double ramp_s, double u) {
  const double start = ramp.start_rps;
  const double end = ramp.end_rps;
  if (u <= 0.0) return 0.0;  // the first request (and 0/0 for a linear ramp from 0)
  if (start == end) return u / start;
  double total = 0.0;  // Lambda(ramp_s)
  if (ramp.strategy == RampStrategy::linear) {
    total = ramp_s * (start + end) / 2.0;
    if (u <= total) {
      // Root of (end - start) / (2 T) t^2 + start t - u = 0, in the form that does not cancel
      // (and holds for start = 0).
      const double slope = (end - start) / ramp_s;
      return 2.0 * u / (start + std::sqrt(start * start + 2.0 * slope * u));
    }
  } else {
    const double log_ratio = std::log(end / start);
    total = start * ramp_s * (end / start - 1.0) / log_ratio;
    if (u <= total) return ramp_s * std::log1p(u * log_ratio / (start * ramp_s)) / log_ratio;
  }
  return ramp_s + (u - total) / end;
}

// How many requests a constant rate starts before the deadline: k with round(k / R) < T.
std::size_t constant_count_before(double ns_per_unit, std::int64_t deadline_ns) {
  const auto deadline = static_cast<double>(deadline_ns);
  auto count = static_cast<std::size_t>(std::max(0.0, std::ceil(deadline / ns_per_unit)));
  while (count > 0 && std::round(static_cast<double>(count - 1) * ns_per_unit) >= deadline) {
    --count;
  }
  while (std::round(static_cast<double>(count) * ns_per_unit) < deadline) ++count;
  return count;
}

}  // namespace

void validate(const ArrivalOptions& options) {
  if (!(options.rate_per_s > 0.0)) {
    reject("--request-rate must be > 0 requests/s (or inf for all at once), got " +
           show(options.rate_per_s));
  }
  if (!(options.burstiness > 0.0)) {
    reject("--burstiness must be > 0 (1 = Poisson, < 1 burstier, > 1 more even), got " +
           show(options.burstiness));
  }
  const RampUp& ramp = options.ramp;
  if (ramp.strategy == RampStrategy::none) return;
  const std::string strategy(ramp_strategy_name(ramp.strategy));
  if (!std::isinf(options.rate_per_s)) {
    reject("--ramp-up-strategy " + strategy + " sets the rate from --ramp-up-start-rps to " +
           "--ramp-up-end-rps; do not also give --request-rate (as in vLLM)");
  }
  if (!(ramp.start_rps >= 0.0) || std::isinf(ramp.start_rps)) {
    reject("--ramp-up-start-rps must be a finite rate >= 0 requests/s, got " +
           show(ramp.start_rps));
  }
  if (!(ramp.end_rps > 0.0) || std::isinf(ramp.end_rps)) {
    reject("--ramp-up-end-rps must be a finite rate > 0 requests/s, got " + show(ramp.end_rps));
  }
  if (ramp.start_rps > ramp.end_rps) {
    reject("--ramp-up-start-rps (" + show(ramp.start_rps) + ") must not exceed " +
           "--ramp-up-end-rps (" + show(ramp.end_rps) + "), as in vLLM");
  }
  if (ramp.strategy == RampStrategy::exponential && ramp.start_rps == 0.0) {
    reject("--ramp-up-start-rps must be > 0 with --ramp-up-strategy exponential, got 0");
  }
}

bool sends_all_at_once(const ArrivalOptions& options) {
  return !is_open_loop(options.rate_per_s, options.ramp.strategy, false);
}

ArrivalStream::ArrivalStream(const ArrivalOptions& options, Clock clock)
    : options_(options),
      clock_(clock),
      random_(mix_seed(options.seed ^ kScheduleStream)),
      constant_gaps_(gaps_are_constant(options)) {}

// The position of the next request: 0 for the first, then one gap on. A gap of a unit-rate
// process is Gamma(B, scale 1/B): mean 1, CV 1/sqrt(B); divided by a rate R it is vLLM's
// Gamma(shape B, scale 1/(R*B)).
double ArrivalStream::advance() {
  if (given_ > 0) {
    const double gap =
        constant_gaps_ ? 1.0 : random_.gamma(options_.burstiness) / options_.burstiness;
    if (clock_ == Clock::ramp_by_count) {
      const double last = static_cast<double>(std::max<std::size_t>(size_ - 1, 1));
      position_ += gap / ramp_rate_per_s(options_.ramp, static_cast<double>(given_) / last);
    } else {
      position_ = constant_gaps_ ? static_cast<double>(given_) : position_ + gap;
    }
  }
  ++given_;
  return position_;
}

double ArrivalStream::position_ns(double position) const {
  switch (clock_) {
    case Clock::unit_rate: return position * scale_ * (kNsPerS / options_.rate_per_s);
    case Clock::ramp_by_count: return position * kNsPerS;
    case Clock::ramp_by_time: return ramp_time_at(options_.ramp, ramp_s_, position) * kNsPerS;
    case Clock::zeros:
    case Clock::given:  // next() reads its offsets without positions
      break;
  }
  return 0.0;
}

// A count schedule: vLLM rescales the cumulative gaps so the last ends where the target rate
// puts it (unit_rate only), and the last offset must fit int64 nanoseconds.
void ArrivalStream::normalise_and_check(std::size_t count) {
  size_ = count;
  if (count == 0 || clock_ == Clock::zeros) return;
  ArrivalStream dry = *this;
  double last = 0.0;
  while (dry.given_ < count) last = dry.advance();
  if (clock_ == Clock::unit_rate && !constant_gaps_ && options_.normalize_mean_rate && count > 1 &&
      last > 0.0) {
    scale_ = static_cast<double>(count - 1) / last;
  }
  last_ns_ = to_offset_ns(position_ns(last));
}

// A deadline schedule drawn as it goes: how many requests start before the deadline.
void ArrivalStream::count_until(std::int64_t deadline_ns, std::size_t max_count) {
  const auto deadline = static_cast<double>(deadline_ns);
  ArrivalStream dry = *this;
  std::size_t count = 0;
  while (count < max_count) {
    const double ns = dry.position_ns(dry.advance());
    if (!(std::round(ns) < deadline)) break;
    last_ns_ = static_cast<std::int64_t>(std::llround(ns));
    ++count;
  }
  size_ = count;
}

std::optional<std::int64_t> ArrivalStream::next() {
  if (given_ >= size_) return std::nullopt;
  if (clock_ == Clock::zeros) {
    ++given_;
    return 0;
  }
  if (clock_ == Clock::given) return (*given_ns_)[given_first_ + given_++] - given_base_ns_;
  const double ns = position_ns(advance());
  // Offsets within the last one's range, checked when the stream was made: no throw here.
  return static_cast<std::int64_t>(std::llround(ns));
}

ArrivalStream ArrivalStream::of_count(const ArrivalOptions& options, std::size_t count) {
  validate(options);
  const Clock clock = sends_all_at_once(options) ? Clock::zeros
                      : has_ramp(options)        ? Clock::ramp_by_count
                                                 : Clock::unit_rate;
  ArrivalStream stream(options, clock);
  stream.normalise_and_check(count);
  return stream;
}

ArrivalStream ArrivalStream::until(const ArrivalOptions& options, std::int64_t deadline_ns,
                                   std::size_t max_count) {
  validate(options);
  if (deadline_ns < 0) {
    reject("--duration must be >= 0, got " + show(ns_to_s(deadline_ns)) + " s");
  }
  if (deadline_ns == 0 || max_count == 0) return ArrivalStream(options, Clock::zeros);
  // Every request due at once: only max_count bounds them; the caller stops at the deadline.
  if (sends_all_at_once(options)) return of_count(options, max_count);
  if (!has_ramp(options) && options.normalize_mean_rate && !gaps_are_constant(options)) {
    // Exactly the count a constant rate starts before the deadline, spread as the process
    // places them: the normalised count schedule ends at (N - 1) / R < T. When max_count cuts
    // it short, the schedule is that of max_count requests (same rate, shorter span).
    const double ns_per_unit = kNsPerS / options.rate_per_s;
    return of_count(options, std::min(constant_count_before(ns_per_unit, deadline_ns), max_count));
  }
  // A unit-rate clock u mapped to time: t = u / R, or through the ramp's Lambda^-1 over T.
  ArrivalStream stream(options, has_ramp(options) ? Clock::ramp_by_time : Clock::unit_rate);
  stream.ramp_s_ = ns_to_s(deadline_ns);
  stream.count_until(deadline_ns, max_count);
  return stream;
}

ArrivalStream ArrivalStream::of_offsets(std::shared_ptr<const std::vector<std::int64_t>> offsets_ns,
                                        std::size_t first, std::size_t count,
                                        std::int64_t base_ns) {
  if (offsets_ns == nullptr || first + count > offsets_ns->size()) {
    throw std::logic_error("ArrivalStream::of_offsets: the offsets do not hold the range");
  }
  ArrivalStream stream(ArrivalOptions{}, Clock::given);
  stream.size_ = count;
  if (count > 0) stream.last_ns_ = (*offsets_ns)[first + count - 1] - base_ns;
  stream.given_ns_ = std::move(offsets_ns);
  stream.given_first_ = first;
  stream.given_base_ns_ = base_ns;
  return stream;
}

namespace {

std::vector<std::int64_t> drain(ArrivalStream stream) {
  std::vector<std::int64_t> offsets;
  offsets.reserve(stream.size());
  while (const std::optional<std::int64_t> offset = stream.next()) offsets.push_back(*offset);
  return offsets;
}

}  // namespace

std::vector<std::int64_t> arrival_offsets_ns(const ArrivalOptions& options, std::size_t count) {
  return drain(ArrivalStream::of_count(options, count));
}

std::vector<std::int64_t> arrival_offsets_until_ns(const ArrivalOptions& options,
                                                   std::int64_t deadline_ns,
                                                   std::size_t max_count) {
  return drain(ArrivalStream::until(options, deadline_ns, max_count));
}

double ramp_rate_per_s(const RampUp& ramp, double progress) {
  const double p = std::clamp(progress, 0.0, 1.0);
  switch (ramp.strategy) {
    case RampStrategy::linear: return ramp.start_rps + (ramp.end_rps - ramp.start_rps) * p;
    case RampStrategy::exponential:
      return ramp.start_rps * std::pow(ramp.end_rps / ramp.start_rps, p);
    case RampStrategy::none: break;
  }
  return 0.0;
}

std::optional<ArrivalProcess> parse_arrival_process(std::string_view name) {
  if (name == "poisson") return ArrivalProcess::poisson_gamma;
  if (name == "constant") return ArrivalProcess::constant;
  return std::nullopt;
}

std::optional<RampStrategy> parse_ramp_strategy(std::string_view name) {
  if (name == "linear") return RampStrategy::linear;
  if (name == "exponential") return RampStrategy::exponential;
  return std::nullopt;
}

std::string_view arrival_process_name(ArrivalProcess process) {
  return process == ArrivalProcess::constant ? "constant" : "poisson";
}

std::string_view ramp_strategy_name(RampStrategy strategy) {
  switch (strategy) {
    case RampStrategy::linear: return "linear";
    case RampStrategy::exponential: return "exponential";
    case RampStrategy::none: break;
  }
  return "none";
}

}  // namespace bench::schedule
