#pragma once
// Open-loop arrival schedules: when each request is due, as int64 nanoseconds from the run's
// start, determined before the run by a seed, so two runs with the same seed send the same
// requests at the same offsets (vLLM's `vllm bench serve` precomputes its delays too; SGLang's
// bench_serving draws each gap as it goes). They are drawn one at a time (ArrivalStream), so a
// schedule of any length costs constant memory. The concurrency limit still applies on
// top: a request whose offset has come waits for a free slot, and that wait is schedule lag.
//
// The process, as in vLLM (vllm/benchmarks/serve.py, get_request):
//   gap ~ Gamma(shape = B, scale = 1 / (R * B))   mean 1/R, coefficient of variation 1/sqrt(B)
// B = 1 is the exponential (a Poisson process), which is all SGLang draws
// (python/sglang/benchmark/serving.py, get_request: np.random.exponential(1 / R); it has no
// --burstiness). B < 1 is burstier, B > 1 more even, and B = inf (vLLM's convention) or
// ArrivalProcess::constant gives fixed gaps of 1/R.
//
// First request: at offset 0, then one gap before each next request, as SGLang (and vLLM's
// older benchmark_serving.py) send it. Current vLLM also waits one drawn gap before the first.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "bench/schedule/portable_random.hpp"

namespace bench::schedule {

inline constexpr double kUnlimitedRate = std::numeric_limits<double>::infinity();

enum class ArrivalProcess {
  poisson_gamma,  // gamma-distributed gaps of shape `burstiness` (1 = Poisson)
  constant,       // every gap exactly 1/rate (`burstiness` is not used)
};

enum class RampStrategy { none, linear, exponential };

/// vLLM's --ramp-up-strategy: the rate goes from start_rps to end_rps over the run.
///   linear:       rate(p) = start + (end - start) * p
///   exponential:  rate(p) = start * (end / start)^p
/// With a request count N (arrival_offsets_ns), p = i / (N - 1) for request i and the gap
/// before request i is drawn at rate(p_i): vLLM's _get_current_request_rate, exactly. With a
/// deadline T (arrival_offsets_until_ns) the ramp is over time instead, p = t / T, and the
/// rate at time t is exactly rate(t / T): a unit-rate process is mapped through the inverse of
/// the cumulative rate Lambda(t) = integral of rate from 0 to t (vLLM has no deadline mode).
struct RampUp {
  RampStrategy strategy = RampStrategy::none;
  double start_rps = 0.0;  // --ramp-up-start-rps, requests/s at the start (>= 0; > 0 exponential)
  double end_rps = 0.0;    // --ramp-up-end-rps, requests/s at the end (> 0, >= start_rps)
};

struct ArrivalOptions {
  double rate_per_s = kUnlimitedRate;  // --request-rate, requests/s; inf = all at offset 0
  double burstiness = 1.0;             // --burstiness, gamma shape B (> 0; inf = constant)
  ArrivalProcess process = ArrivalProcess::poisson_gamma;
  RampUp ramp;  // replaces rate_per_s (which must then stay inf)
  // vLLM's normalisation: without a ramp, the drawn gaps are rescaled so the schedule's mean
  // rate is exactly rate_per_s (N requests span (N-1)/R; vLLM: N/R), which removes the 1-3%
  // seed noise of a sum of random gaps. With a deadline, this sends exactly the count a
  // constant rate would (ceil(R*T)) at Poisson/gamma-placed times. Off: the raw renewal
  // process, as SGLang draws it. Not used with a ramp (vLLM does not normalise one either).
  bool normalize_mean_rate = true;
  std::uint64_t seed = 0;  // --seed; the schedule's draws are independent of the
                           // prompts' draws for the same seed
};

/// Throws std::invalid_argument, naming the flag, for: a rate that is not > 0 (or inf), a
/// burstiness that is not > 0, a ramp given together with a finite --request-rate (vLLM
/// refuses it too), ramp rates that are negative, not finite, start > end (vLLM), end = 0, or
/// start = 0 with the exponential strategy (vLLM). NaN is rejected everywhere.
void validate(const ArrivalOptions& options);

/// True when every request is due at once (rate inf, no ramp): a closed loop.
bool sends_all_at_once(const ArrivalOptions& options);

/// The offsets of one schedule drawn one at a time, in constant memory: exactly the values, in
/// order, that arrival_offsets_ns and arrival_offsets_until_ns return whole (they are built on
/// it). Construction validates, then makes one pass over the draws without keeping them, to
/// learn what the whole schedule needs before its first offset: the count under a deadline,
/// vLLM's normalisation of the mean rate, the range of the last offset (so every error is
/// thrown before a request is sent). That pass costs O(count) draws, ~30 ns each; a copy draws
/// on independently from where the original stood.
class ArrivalStream {
 public:
  /// The first `count` arrivals (arrival_offsets_ns). Throws as arrival_offsets_ns.
  static ArrivalStream of_count(const ArrivalOptions& options, std::size_t count);
  /// Every arrival before `deadline_ns`, at most `max_count` (arrival_offsets_until_ns).
  static ArrivalStream until(const ArrivalOptions& options, std::int64_t deadline_ns,
                             std::size_t max_count);
  /// Offsets given in advance (a replayed trace): (*offsets_ns)[first + i] - base_ns for i in
  /// [0, count). `offsets_ns` must be non-decreasing and hold them all; it is shared, not copied.
  static ArrivalStream of_offsets(std::shared_ptr<const std::vector<std::int64_t>> offsets_ns,
                                  std::size_t first, std::size_t count, std::int64_t base_ns);

  std::size_t size() const { return size_; }         // how many offsets it yields in all
  std::int64_t last_ns() const { return last_ns_; }  // the last of them (0 when size() == 0)
  std::optional<std::int64_t> next();                // nullopt after the last

 private:
  enum class Clock {
    zeros,          // every request due at once
    unit_rate,      // offset = u * scale / R, u a unit-rate renewal clock
    ramp_by_count,  // vLLM's ramp: the gap before request i drawn at rate(i / (N - 1))
    ramp_by_time,   // offset = Lambda^-1(u) over the deadline
    given,          // offsets read from given_ns_
  };
  ArrivalStream(const ArrivalOptions& options, Clock clock);
  double advance();                           // the next request's position on the clock
  double position_ns(double position) const;  // that position as (unrounded) nanoseconds
  void count_until(std::int64_t deadline_ns, std::size_t max_count);
  void normalise_and_check(std::size_t count);

  ArrivalOptions options_;
  Clock clock_;
  PortableRandom random_;       // the gaps' draws
  bool constant_gaps_ = false;  // every gap exactly one unit
  std::size_t size_ = 0;
  std::size_t given_ = 0;  // offsets yielded so far
  double position_ = 0.0;  // u, or seconds for ramp_by_count, of the last request drawn
  double scale_ = 1.0;     // vLLM's normalisation (1: none)
  double ramp_s_ = 0.0;    // ramp_by_time: the deadline in seconds
  std::int64_t last_ns_ = 0;
  // Clock::given: the offsets, the first one's index, and what is taken off each.
  std::shared_ptr<const std::vector<std::int64_t>> given_ns_;
  std::size_t given_first_ = 0;
  std::int64_t given_base_ns_ = 0;
};

/// The offsets of `count` requests: non-decreasing, the first 0. All zeros when
/// sends_all_at_once(). Validates first (std::invalid_argument); throws std::invalid_argument
/// naming --request-rate if an offset would pass int64 nanoseconds (292 years).
std::vector<std::int64_t> arrival_offsets_ns(const ArrivalOptions& options, std::size_t count);

/// The offsets of every request that starts before `deadline_ns` (--duration; offsets are
/// < deadline_ns), at most `max_count` of them. With sends_all_at_once() every offset is 0 and
/// only max_count bounds the list: the caller stops sending at the deadline itself. Throws as
/// arrival_offsets_ns, and names --duration for a negative deadline.
std::vector<std::int64_t> arrival_offsets_until_ns(const ArrivalOptions& options,
                                                   std::int64_t deadline_ns, std::size_t max_count);

/// rate(p) of the ramp's formula above, for p in [0, 1] (clamped). RampStrategy::none: 0.
double ramp_rate_per_s(const RampUp& ramp, double progress);

/// "poisson" / "constant"; "linear" / "exponential" (as vLLM spells them). nullopt otherwise.
std::optional<ArrivalProcess> parse_arrival_process(std::string_view name);
std::optional<RampStrategy> parse_ramp_strategy(std::string_view name);
std::string_view arrival_process_name(ArrivalProcess process);
std::string_view ramp_strategy_name(RampStrategy strategy);  // none: "none"

}  // namespace bench::schedule
