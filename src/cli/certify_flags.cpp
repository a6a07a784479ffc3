#include "bench/cli/certify_flags.hpp"

#include "bench/cli/choice_flag.hpp"
#include "bench/cli/values.hpp"

namespace bench::cli {

CLI::App* setup_certify_flags(CLI::App& app, CertifyOptions& options) {
  CLI::App* command = app.add_subcommand(
      "certify",
      "The client's own error per figure, measured: given a run's results, its load replayed by "
      "bench against a loopback twin of its server (its median TTFT and time per token) with a "
      "truth log; given a request log and --truth, that run's own truth log. Client minus server "
      "per request for TTFT, ITL, TPOT and E2E (docs/metrics.md)");
  command
      ->add_option("input", options.input_path,
                   "The run's results JSON (the twin replays its load), or with --truth its "
                   "request log (--save-requests)")
      ->required()
      ->check(CLI::ExistingFile);
  command
      ->add_option("--truth", options.truth_path,
                   "The truth log of the server the run met (serve-sim --trace FILE): the run's "
                   "own requests are joined to it, no twin")
      ->check(CLI::ExistingFile)
      ->option_text("PATH");
  command
      ->add_option("--window", options.window,
                   "The twin replays at most this many of the run's requests (default 200)")
      ->check(CLI::PositiveNumber);
  command
      ->add_option("--timeout", options.timeout_s,
                   "Seconds the twin's replay may run before it is stopped (default 600)")
      ->check(CLI::PositiveNumber);
  command
      ->add_option("--max-error-share", options.share,
                   "Flag a figure whose client-error p99 is over this share of the figure's p99 "
                   "(default 0.05: 5%)")
      ->check(CLI::Range(0.0, 1.0));
  command
      ->add_option("--fail-over", options.fail_over,
                   "KEY=VALUE: exit 4 when the certificate's KEY (e.g. "
                   "ttft_client_error_p99_ms=1) is over VALUE; repeatable")
      ->take_all()
      ->option_text("KEY=VALUE");
  add_choice(*command, "--output-format", options.format, {OutputFormat::text, OutputFormat::json},
             output_format_name, "text or json");
  return command;
}

}  // namespace bench::cli
