// What the run writes and judges: goodput SLOs, CI gates, repeats, output formats and files,
// and the facts the efficiency figures need (GPUs, their price).
#include "bench/cli/run_flag_groups.hpp"

#include "bench/cli/choice_flag.hpp"
#include "bench/cli/number_checks.hpp"

namespace bench::cli {

void add_results_flags(CLI::App& app, RunOptions& run, RawRunFlags& raw) {
  app.add_option("--goodput", raw.goodput,
                 "SLOs for goodput, vLLM's syntax: ttft:MS tpot:MS e2el:MS (any of them)")
      ->expected(1, 3)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--fail-under", raw.fail_under,
                 "CI gate: exit 4 when METRIC < VALUE, METRIC any number of the JSON results "
                 "(output_throughput=800); repeatable")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--fail-over", raw.fail_over,
                 "CI gate: exit 4 when METRIC > VALUE (p99_ttft_ms=500); repeatable")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--max-error-rate", raw.max_error_rate,
                 "CI gate: exit 4 when failed / sent > F (0.01 or 1%); failures within it do "
                 "not fail the run");
  app.add_option("--repeat", run.repeat,
                 "Measure each run or sweep point N times, each with fresh prompts, and report "
                 "the mean and 95% confidence interval (Student's t) of every throughput and "
                 "of median and p99 latencies")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1000}))
      ->capture_default_str();
  add_choice(app, "--gate-on", run.output.gate_on, {gate::GateOn::mean, gate::GateOn::worst},
             gate::gate_on_name,
             "With --repeat, what --fail-under/--fail-over/--max-error-rate judge: mean (of "
             "the repeats) or worst (every repeat must pass)");
  app.add_option("--html", run.output.html_path, "Also write a self-contained HTML report here")
      ->option_text("FILE");
  add_choice(app, "--output-format", run.output.format,
             {OutputFormat::text, OutputFormat::json, OutputFormat::csv}, output_format_name,
             "What stdout holds: text (human report), json (only the results object) or csv "
             "(one header, one row per run)");
  app.add_option("--output-file", run.output.output_file,
                 "Also write the JSON results to this file")
      ->option_text("FILE");
  app.add_option("--json-compat", run.json_compat,
                 "Write the JSON results (stdout and --output-file) as vLLM's or SGLang's scripts "
                 "read them: *_itl_ms are per-chunk gaps (bench's icl), bench's per-token ITL "
                 "moves to *_itl_per_token_ms; vllm adds *_e2el_ms, total_token_throughput, "
                 "request_goodput")
      ->check(CLI::IsMember({"vllm", "sglang"}));
  app.add_option("--save-requests", run.output.save_requests,
                 "Write one JSON line per request (timings, chunks, tokens, status) to this file")
      ->option_text("FILE");
  app.add_option("--gpus", run.gpus,
                 "Accelerators (GPUs) serving the model, recorded with the results: output, "
                 "input and total tok/s per GPU are each throughput over N; without it they are "
                 "unknown")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000}));
  app.add_option("--gpu-hour-price", run.gpu_hour_price,
                 "USD per GPU-hour (needs --gpus): each point's cost per million output, input "
                 "and total tokens, each charging the GPUs' whole time to its kind")
      ->check(positive_number());
}

}  // namespace bench::cli
