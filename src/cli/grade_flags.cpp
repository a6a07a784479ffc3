#include "bench/cli/grade_flags.hpp"

#include <algorithm>

#include "bench/cli/choice_flag.hpp"
#include "bench/cli/sim_flags.hpp"
#include "bench/cli/values.hpp"

namespace bench::cli {

CLI::App* setup_grade_flags(CLI::App& app, GradeOptions& options) {
  CLI::App* command = app.add_subcommand(
      "grade",
      "Grade any client: start the embedded server with its truth log, run the client's command "
      "({url} and {results} filled in), and print its figures' error against what the server "
      "really sent, beside bench's own on the same load (docs/usage.md)");
  add_sim_flags(*command, options.sim, "--sim-");
  command
      ->add_option("--results", options.results_path,
                   "Where the client writes its results file, when its command line does not "
                   "take {results} (vLLM's or SGLang's JSON, or bench's)")
      ->option_text("PATH");
  command
      ->add_option("--timeout", options.timeout_s,
                   "Seconds the client may run before it is stopped (default 600)")
      ->check(CLI::PositiveNumber);
  command->add_flag(
      "--no-bench", [&options](std::int64_t) { options.with_bench = false; },
      "Leave out bench's own run on the same load");
  add_choice(*command, "--output-format", options.format, {OutputFormat::text, OutputFormat::json},
             output_format_name, "text or json");
  command
      ->add_option("command", options.command,
                   "After --: the client's command line; {url} becomes the server's root URL, "
                   "{host} and {port} its parts, {results} a path for its results file")
      ->expected(-1);
  return command;
}

void finish_grade_flags(GradeOptions& options) {
  if (options.command.empty()) {
    throw UsageError(
        "bench grade: give the client's command after --: bench grade -- COMMAND "
        "ARGS... ({url} becomes the server's URL)");
  }
  const bool takes_results = std::any_of(
      options.command.begin(), options.command.end(),
      [](const std::string& arg) { return arg.find("{results}") != std::string::npos; });
  if (!takes_results && options.results_path.empty()) {
    throw UsageError(
        "bench grade: say where the client writes its results: {results} in its "
        "command line, or --results PATH");
  }
}

}  // namespace bench::cli
