// The load's flags: how many requests, how fast they arrive, for how long.
#include "bench/cli/run_flag_groups.hpp"

#include "bench/cli/choice_flag.hpp"
#include "bench/cli/number_checks.hpp"

namespace bench::cli {

void add_load_flags(CLI::App& app, RunOptions& run, RawRunFlags& raw) {
  app.add_option("--concurrency,--max-concurrency", raw.concurrency,
                 "Requests in flight at most. A list (1,8,64,256) sweeps: one run per value, "
                 "one table. With --request-rate it is a cap (default then: none; the results "
                 "write max_concurrency null)")
      ->capture_default_str();
  app.add_option("--request-rate", raw.request_rate,
                 "Requests per second, arriving at random (Poisson, see --burstiness), or inf for "
                 "a closed loop. A list (1,4,16,inf) sweeps over the rate")
      ->capture_default_str();
  app.add_option("--burstiness", run.burstiness,
                 "Shape of the gamma-distributed gaps between arrivals: 1 = Poisson, < 1 burstier, "
                 "> 1 steadier (as SGLang and vLLM)")
      ->check(positive_number())
      ->capture_default_str();
  app.add_flag("--constant-rate", run.constant_rate,
               "Fixed gaps of exactly 1/rate between arrivals instead of random ones");
  add_choice(app, "--ramp-up-strategy", run.ramp_up_strategy,
             {schedule::RampStrategy::none, schedule::RampStrategy::linear,
              schedule::RampStrategy::exponential},
             schedule::ramp_strategy_name,
             "Raise the request rate from --ramp-up-start-rps to --ramp-up-end-rps over the run "
             "(vLLM's): linear or exponential");
  app.add_option("--ramp-up-start-rps", run.ramp_up_start_rps, "Ramp-up: requests/s at the start")
      ->check(non_negative_number());
  app.add_option("--ramp-up-end-rps", run.ramp_up_end_rps, "Ramp-up: requests/s at the end")
      ->check(non_negative_number());
  app.add_option("--num-prompts", run.num_prompts,
                 "Measured requests to send (with --duration: whichever comes first ends the run, "
                 "unless --reuse-prompts)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000'000}))
      ->capture_default_str();
  app.add_option("--duration", raw.duration,
                 "Measure for this long (90, 90s, 5m, 1h): no request starts after it; those in "
                 "flight finish and count. With --num-prompts too, whichever comes first ends "
                 "the run");
  app.add_flag("--duration-hard", run.duration_hard,
               "At the end of --duration, cancel requests in flight (counted as cancelled)");
  app.add_option("--warmup-duration", raw.warmup_duration,
                 "Warm up for this long before measuring (same load, not measured)");
  app.add_option("--warmup-requests,--num-warmups", run.warmup_requests,
                 "Requests sent before the measured phase, not measured (--num-warmups: vLLM's "
                 "name)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1'000'000}))
      ->capture_default_str();
}

}  // namespace bench::cli
