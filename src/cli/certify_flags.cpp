#include "bench/cli/certify_flags.hpp"

#include "bench/cli/choice_flag.hpp"
#include "bench/cli/values.hpp"

namespace bench::cli {

CLI::App* setup_certify_flags(CLI::App& app, CertifyOptions& options) {
  CLI::App* command = app.add_subcommand(
      "certify",
      "The client's own error per figure: a run's request log (--save-requests) joined by "
      "response id to the server's truth log (serve-sim --trace), client minus server for TTFT, "
      "ITL, TPOT and E2E (docs/metrics.md)");
  command->add_option("requests", options.requests_path, "The run's request log (--save-requests)")
      ->required()
      ->check(CLI::ExistingFile);
  command
      ->add_option("--truth", options.truth_path,
                   "The server's truth log of the same run (serve-sim --trace FILE)")
      ->required()
      ->check(CLI::ExistingFile)
      ->option_text("PATH");
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
