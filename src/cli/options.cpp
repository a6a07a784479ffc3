#include "bench/cli/options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "bench/cli/certify_flags.hpp"
#include "bench/cli/choice_flag.hpp"
#include "bench/cli/completion.hpp"
#include "bench/cli/conformance_flags.hpp"
#include "bench/cli/exit_codes.hpp"
#include "bench/cli/grade_flags.hpp"
#include "bench/cli/header_line.hpp"
#include "bench/cli/help_format.hpp"
#include "bench/cli/missing_value.hpp"
#include "bench/cli/output_paths.hpp"
#include "bench/cli/peer_flags.hpp"
#include "bench/cli/run_flags.hpp"
#include "bench/cli/search_flags.hpp"
#include "bench/cli/sim_flags.hpp"
#include "bench/cli/unknown_flag.hpp"
#include "bench/cli/values.hpp"
#include "bench/compare/compare.hpp"
#include "bench/results/format.hpp"
#include "bench/schedule/load_mode.hpp"

namespace bench::cli {

namespace {

// The subcommands, to tell which one the command line chose.
struct Subcommands {
  CLI::App* serve_sim = nullptr;
  CLI::App* compare = nullptr;
  CLI::App* report = nullptr;
  CLI::App* export_results = nullptr;
  CLI::App* search = nullptr;
  CLI::App* merge = nullptr;
  CLI::App* record = nullptr;
  CLI::App* conformance = nullptr;
  CLI::App* grade = nullptr;
  CLI::App* certify = nullptr;
  CLI::App* completion = nullptr;  // prints a shell completion script

  // The subcommand whose flags were read; null for the run (the top-level command).
  const CLI::App* chosen() const {
    for (const CLI::App* subcommand : {serve_sim, compare, report, export_results, search, merge,
                                       record, conformance, grade, certify, completion}) {
      if (subcommand->parsed()) return subcommand;
    }
    return nullptr;
  }
  Command command() const {
    if (serve_sim->parsed()) return Command::serve_sim;
    if (compare->parsed()) return Command::compare;
    if (report->parsed()) return Command::report;
    if (export_results->parsed()) return Command::export_results;
    if (search->parsed()) return Command::search;
    if (merge->parsed()) return Command::merge;
    if (record->parsed()) return Command::record;
    if (conformance->parsed()) return Command::conformance;
    if (grade->parsed()) return Command::grade;
    if (certify->parsed()) return Command::certify;
    return Command::run;
  }
};

// `bench compare`'s flags as given; finish_compare_flags turns them into CompareOptions.
struct RawCompareFlags {
  std::string regression;  // --fail-on-regression: "5%", "0.05", "p99_ttft_ms=10%,5%"
};

CLI::App* setup_compare_flags(CLI::App& app, CompareOptions& compare, RawCompareFlags& raw) {
  CLI::App* command = app.add_subcommand(
      "compare",
      "Compare two results files (runs, or sweeps point by point): each key figure "
      "with both values and the change in %, regressions marked");
  command->add_option("base", compare.base_path, "Results JSON of the baseline run")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("new", compare.new_path, "Results JSON of the new run")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--fail-on-regression", raw.regression,
                      "Exit 4 when a figure is worse by more than this: 5% (or 0.05) for "
                      "every figure, METRIC=PCT for one (output_throughput=2%,p99_ttft_ms=10%), "
                      "or both (5%,p99_itl_ms=20%); METRIC is a results key compare shows");
  add_choice(*command, "--output-format", compare.format, {OutputFormat::text, OutputFormat::json},
             output_format_name, "text or json");
  return command;
}

void finish_compare_flags(CompareOptions& compare, const RawCompareFlags& raw) {
  if (raw.regression.empty()) return;
  auto thresholds = compare::parse_thresholds("--fail-on-regression", raw.regression);
  if (const auto* error = std::get_if<compare::CompareError>(&thresholds)) {
    throw UsageError(error->message);
  }
  compare.fail_on_regression = std::get<compare::Thresholds>(thresholds);
}

CLI::App* setup_report_flags(CLI::App& app, ReportOptions& report) {
  CLI::App* command = app.add_subcommand(
      "report", "Render a saved results file (a run or a sweep) as a self-contained HTML report");
  command->add_option("results", report.results_path, "Results JSON written by bench")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("-o,--output", report.output_path,
                      "The HTML file to write (required unless --as is given)");
  command
      ->add_option("--as", report.as,
                   "Also print what these tools would have printed for the run, their rules "
                   "applied to its request log: vllm, sglang, aiperf, guidellm (comma-separated)")
      ->delimiter(',');
  command
      ->add_option("--requests", report.requests_path,
                   "The run's per-request log (its --save-requests file), which --as reads")
      ->check(CLI::ExistingFile);
  add_choice(*command, "--output-format", report.format, {OutputFormat::text, OutputFormat::json},
             output_format_name, "With --as, what stdout holds: text or json");
  return command;
}

// `bench export`: a subcommand on a saved results file, as `bench report` is, rather than a
// value of the run's --output-format (which says what the run prints on stdout): it then works
// on any results file, a merge of shards' or an older run's, without running again.
CLI::App* setup_export_flags(CLI::App& app, ExportOptions& options, std::string& format) {
  CLI::App* command = app.add_subcommand(
      "export",
      "Write a saved results file in another tool's format: llm-d-report, llm-d's Benchmark "
      "Report v0.2.1 (one report per run or sweep point; docs/export.md)");
  command->add_option("results", options.results_path, "Results JSON written by bench")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--format", format, "The format written: llm-d-report")
      ->required()
      ->check(CLI::IsMember({"llm-d-report"}));
  command->add_option("-o,--output", options.output_path, "Write it here (else stdout)");
  command
      ->add_option("--point", options.point,
                   "A sweep's (or search's) point alone, 1 for the first; without it, every "
                   "point's report in a JSON array")
      ->check(CLI::PositiveNumber);
  return command;
}

CLI::App* setup_merge_flags(CLI::App& app, MergeOptions& merge) {
  CLI::App* command = app.add_subcommand(
      "merge",
      "Merge the results files of the shards of one benchmark (--shard I/N) into one "
      "result, as if one process had sent every request");
  command->add_option("shards", merge.shard_paths, "The shards' results JSON files")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("-o,--output", merge.output_path, "Write the merged results JSON here");
  add_choice(*command, "--output-format", merge.format,
             {OutputFormat::text, OutputFormat::json, OutputFormat::csv}, output_format_name,
             "What stdout holds: text, json or csv");
  return command;
}

CLI::App* setup_record_flags(CLI::App& app, record::RecordOptions& record, std::string& listen) {
  CLI::App* command = app.add_subcommand(
      "record",
      "Record a server: a pass-through proxy that forwards every exchange unchanged "
      "and writes it, with the time of each read and how the connection closed, into "
      "a wire recording that serve-sim --replay serves back (docs/wire-corpus.md); with "
      "--weka-trace, its completions as Weka-format traces with no text in them");
  command->add_option("--upstream", record.upstream_url, "The server recorded: http://HOST:PORT")
      ->required();
  command
      ->add_option("--listen", listen,
                   "Where clients connect: [HOST:]PORT (HOST defaults to 127.0.0.1; PORT 0 = "
                   "any free port, announced on stderr)")
      ->required();
  command->add_option("--out", record.out_dir,
                      "The recording's directory (created if missing): one NNNNNN.json, "
                      ".request and .response per exchange, each written whole");
  command->add_option("--weka-trace", record.weka_trace_dir,
                      "Also (or instead of --out) write the completions as Weka-format traces, "
                      "one file per session, counts and hashes, no text (docs/wire-corpus.md)");
  command->add_option("--tokenizer", record.tokenizer_path,
                      "--weka-trace: cut prompts into blocks of this tokenizer.json's tokens "
                      "(default: words)");
  command->add_option("--session-header", record.session_headers,
                      "--weka-trace: a header whose value names a request's session (repeat "
                      "for several; default: X-Session-Id)");
  return command;
}

// "[HOST:]PORT" into the record options; what is written, and how the traces count.
void finish_record_flags(const CLI::App& command, record::RecordOptions& record,
                         const std::string& listen) {
  const std::size_t colon = listen.rfind(':');
  const std::string port = colon == std::string::npos ? listen : listen.substr(colon + 1);
  if (colon != std::string::npos) record.listen_host = listen.substr(0, colon);
  char* end = nullptr;
  const long value = std::strtol(port.c_str(), &end, 10);
  if (port.empty() || *end != '\0' || value < 0 || value > 65535 || record.listen_host.empty()) {
    throw UsageError("--listen '" + listen + "': give [HOST:]PORT, e.g. 8001 or 127.0.0.1:8001");
  }
  record.listen_port = static_cast<std::uint16_t>(value);
  if (record.out_dir.empty() && record.weka_trace_dir.empty()) {
    throw UsageError("bench record: give --out DIR (a wire recording), --weka-trace DIR, or both");
  }
  for (const char* flag : {"--tokenizer", "--session-header"}) {
    if (command.count(flag) > 0 && record.weka_trace_dir.empty()) {
      throw UsageError(fmt::format("{}: only with --weka-trace", flag));
    }
  }
  for (const std::string& name : record.session_headers) {
    if (!is_header_name(name)) {
      throw UsageError(fmt::format("--session-header: '{}' is not an HTTP header name", name));
    }
  }
}

// Every command's flags as given, before finish_* checks them into ParseResult's options.
// CLI11 binds to these members, so they live as long as the parse.
struct RawFlags {
  RawRunFlags run;
  RawCompareFlags compare;
  std::string export_format;
  RawRunFlags probe;  // bench search: the run's flags for its probes
  RawSearchFlags search;
  std::string record_listen;
  std::string completion_shell;
};

// The top-level run's flags and every subcommand with its flags, bound to `result` and `raw`.
Subcommands declare_commands(CLI::App& app, ParseResult& result, RawFlags& raw) {
  setup_run_flags(app, result.run, raw.run);
  Subcommands subcommands;
  subcommands.serve_sim = app.add_subcommand(
      "serve-sim", "Run the embedded OpenAI-compatible simulated server in the foreground");
  setup_serve_sim_flags(*subcommands.serve_sim, result.serve_sim);
  subcommands.compare = setup_compare_flags(app, result.compare, raw.compare);
  subcommands.report = setup_report_flags(app, result.report);
  subcommands.export_results = setup_export_flags(app, result.export_options, raw.export_format);
  // bench search: the run's flags for its probes, and its own.
  subcommands.search = app.add_subcommand(
      "search",
      "Find the largest concurrency (or request rate) whose run meets every --slo: "
      "doubling from --start, then bisecting to --resolution");
  setup_run_flags(*subcommands.search, result.run, raw.probe);
  setup_search_flags(*subcommands.search, result.search, raw.search);
  subcommands.merge = setup_merge_flags(app, result.merge);
  subcommands.record = setup_record_flags(app, result.record, raw.record_listen);
  subcommands.conformance = setup_conformance_flags(app, result.conformance);
  subcommands.grade = setup_grade_flags(app, result.grade);
  subcommands.certify = setup_certify_flags(app, result.certify);
  // `bench completion bash|zsh`: a script written from the definitions above, so it completes
  // exactly what --help lists (and the --sim-* flags it names in one line).
  subcommands.completion = app.add_subcommand(
      "completion", "Print a shell completion script (bash or zsh) for every flag and subcommand");
  subcommands.completion->add_option("shell", raw.completion_shell, "bash or zsh")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh"}));
  return subcommands;
}

// bench search's flags checked: the run's for its probes, then its own.
void finish_search_command(const CLI::App& command, ParseResult& result, const RawFlags& raw) {
  finish_run_flags(command, result.run, raw.probe);
  // A weka trace's sessions are a multi-turn run whose probes count session trees.
  if (result.run.multi_turn.enabled && !workload::replays_agent_sessions(result.run.dataset)) {
    throw UsageError(
        "--multi-turn: not with bench search (its probes count requests, not "
        "sessions)");
  }
  finish_search_flags(command, result.search, raw.search, result.run);
  // A search chooses each probe from the last one's outcome: shards could not agree.
  if (result.run.shard_count > 1) throw UsageError("bench search: shards are not supported");
}

// The chosen command's flags checked and turned into its options; a UsageError otherwise.
void finish_command(const CLI::App& app, const Subcommands& subcommands, ParseResult& result,
                    const RawFlags& raw) {
  switch (result.command) {
    case Command::compare: finish_compare_flags(result.compare, raw.compare); return;
    case Command::merge:
      if (!result.merge.output_path.empty()) {
        check_output_path("merge -o", result.merge.output_path);
      }
      return;
    case Command::record:
      finish_record_flags(*subcommands.record, result.record, raw.record_listen);
      return;
    case Command::conformance: finish_conformance_flags(result.conformance); return;
    case Command::grade: finish_grade_flags(result.grade); return;
    case Command::certify: return;
    case Command::report: check_output_path("report -o", result.report.output_path); return;
    case Command::export_results:
      // --format's one value so far (IsMember above refuses any other).
      result.export_options.format = ExportFormat::llmd_report;
      if (!result.export_options.output_path.empty()) {
        check_output_path("export -o", result.export_options.output_path);
      }
      return;
    case Command::serve_sim:
      if (!result.serve_sim.trace_path.empty()) {
        check_output_path("--trace", result.serve_sim.trace_path);
      }
      return;
    case Command::run: finish_run_flags(app, result.run, raw.run); return;
    case Command::search: finish_search_command(*subcommands.search, result, raw); return;
    case Command::version: return;
  }
}

}  // namespace

ParseResult parse_cli(int argc, const char* const* argv) {
  ParseResult result;
  CLI::App app{
      "bench: load generator for OpenAI-compatible LLM inference servers.\n"
      "Reports output, input and total token throughput separately, with TTFT, ITL, "
      "TPOT and E2E latency percentiles.",
      "bench"};
  app.set_version_flag("--version", std::string("bench ") + BENCH_VERSION);
  // Before the subcommands are added, so each gets the same formatter (CLI11 copies it).
  auto formatter = std::make_shared<HelpFormatter>();
  formatter->summarize_group(std::string(kEmbeddedServerGroup),
                             std::string(kEmbeddedServerPointer));
  formatter->summarize_group(std::string(kPeerFlagsGroup), std::string(kPeerFlagsPointer));
  app.formatter(formatter);
  // A flag given twice takes its last value, as argparse-based peers do: scripts add overrides
  // to a base command line. Repeatable flags (--header, gates) say TakeAll themselves.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  RawFlags raw;
  const Subcommands subcommands = declare_commands(app, result, raw);
  try {
    app.parse(argc, argv);
    if (subcommands.completion->parsed()) {
      result.exit_code = kExitOk;
      result.message = completion_script(app, raw.completion_shell);
      return result;
    }
    result.command = subcommands.command();
    finish_command(app, subcommands, result, raw);
  } catch (const CLI::CallForHelp&) {
    result.exit_code = kExitOk;
    const CLI::App* chosen = subcommands.chosen();
    result.message = chosen != nullptr ? chosen->help() : app.help();
  } catch (const CLI::CallForVersion&) {
    result.command = Command::version;
  } catch (const CLI::ParseError& error) {
    // The help of the command whose flags were being read: a subcommand has its own.
    const CLI::App* chosen = subcommands.chosen();
    const std::string command = chosen != nullptr ? "bench " + chosen->get_name() : "bench";
    // An unknown flag is named, with the flag it most likely was: it is the cause, whatever
    // CLI11 tripped on after it (an unexpected value, a positional taking the flag's value).
    const CLI::App& given = chosen != nullptr ? *chosen : app;
    const std::optional<std::string> unknown = unknown_flag_message(given, argc, argv);
    result.exit_code = kExitUsage;
    if (const auto missing = missing_value_message(given, error); missing && !unknown) {
      result.message = fmt::format("bench: error: {}\n", *missing);  // it says the usage
      return result;
    }
    result.message = fmt::format("bench: error: {}\nRun '{} --help' for the flags.\n",
                                 unknown.value_or(error.what()), command);
  } catch (const UsageError& error) {
    result.exit_code = kExitUsage;
    result.message = fmt::format("bench: error: {}\n", error.what());
  }
  return result;
}

std::string_view per_chunk_usage_name(PerChunkUsage mode) {
  switch (mode) {
    case PerChunkUsage::on: return "on";
    case PerChunkUsage::off: return "off";
    case PerChunkUsage::auto_detect: break;
  }
  return "auto";
}

std::string_view dialect_name(Dialect dialect) {
  switch (dialect) {
    case Dialect::vllm: return "vllm";
    case Dialect::sglang: return "sglang";
    case Dialect::bench: break;
  }
  return "bench";
}

std::string_view output_format_name(OutputFormat format) {
  switch (format) {
    case OutputFormat::json: return "json";
    case OutputFormat::csv: return "csv";
    case OutputFormat::text: break;
  }
  return "text";
}

namespace {

// The dataset's options and the request's shape: extra body, tools, images, header names,
// goodput's SLOs.
void add_dataset_and_request(nlohmann::json& config, const RunOptions& run) {
  config.update(nlohmann::json(run.dataset));
  config["extra_body"] =
      run.extra_body.empty() ? nlohmann::json::object() : nlohmann::json::parse(run.extra_body);
  // Only when given, so the configs of earlier results keep their keys.
  if (!run.tools.empty()) config["tools"] = nlohmann::json::parse(run.tools);
  if (!run.tool_choice.empty()) config["tool_choice"] = run.tool_choice;
  if (!run.response_format.empty()) {
    config["response_format"] = nlohmann::json::parse(run.response_format);
  }
  if (run.images.enabled()) {
    config[std::string(results::key::images_per_request)] = run.images.per_request;
    config[std::string(results::key::image_size)] =
        images::size_name(run.images.width, run.images.height);
    config[std::string(results::key::image_format)] = images::format_name(run.images.format);
  }
  // Header names only: values may carry credentials.
  nlohmann::json header_names = nlohmann::json::array();
  for (const std::string& header : run.headers) {
    header_names.push_back(header.substr(0, header.find(':')));
  }
  config["header_names"] = header_names;
  nlohmann::json goodput = nlohmann::json::object();
  if (run.goodput.ttft_ms) goodput["ttft_ms"] = *run.goodput.ttft_ms;
  if (run.goodput.tpot_ms) goodput["tpot_ms"] = *run.goodput.tpot_ms;
  if (run.goodput.e2e_ms) goodput["e2el_ms"] = *run.goodput.e2e_ms;
  config["goodput"] = goodput;
}

}  // namespace

bool any_open_loop(const RunOptions& run) {
  const bool trace = workload::brings_arrivals(run.dataset);
  return std::any_of(run.request_rates.begin(), run.request_rates.end(), [&](double rate) {
    return schedule::is_open_loop(rate, run.ramp_up_strategy, trace);
  });
}

nlohmann::json options_to_json(const RunOptions& run) {
  // JSON has no infinity: an unlimited rate is written "inf", as on the command line.
  nlohmann::json rates = nlohmann::json::array();
  for (double rate : run.request_rates) {
    rates.push_back(std::isfinite(rate) ? nlohmann::json(rate) : nlohmann::json("inf"));
  }
  nlohmann::json config = {
      {"base_url", run.base_urls.empty() ? std::string() : run.base_urls.front()},
      {"endpoint", std::string(protocol::endpoint_name(run.endpoint))},
      {"model", run.model},
      {"api_key", run.api_key.empty() ? "" : "<redacted>"},
      {"concurrency", run.concurrency},
      {"request_rate", rates},
      {"burstiness", run.burstiness},
      {"constant_rate", run.constant_rate},
      {"ramp_up_strategy", std::string(schedule::ramp_strategy_name(run.ramp_up_strategy))},
      {"ramp_up_start_rps", run.ramp_up_start_rps},
      {"ramp_up_end_rps", run.ramp_up_end_rps},
      {"num_prompts", run.num_prompts},
      {"duration_s", run.duration_s},
      {"duration_hard", run.duration_hard},
      {"warmup_duration_s", run.warmup_duration_s},
      {"client_threads",
       run.client_threads ? nlohmann::json(*run.client_threads) : nlohmann::json("auto")},
      {"preconnect", run.preconnect < 0 ? nlohmann::json("auto") : nlohmann::json(run.preconnect)},
      {"max_line_bytes", run.max_line_bytes},
      {"max_response_bytes", run.max_response_bytes},
      {"input_len", run.input_len},
      {"tokenizer", run.tokenizer.empty() ? nlohmann::json() : nlohmann::json(run.tokenizer)},
      {"input_len_includes_template", run.input_len_includes_template},
      {"output_len", run.output_len},
      {"ignore_eos", run.ignore_eos},
      {"stream", !run.no_stream},
      {"temperature", run.temperature ? nlohmann::json(*run.temperature) : nlohmann::json()},
      {"seed", run.seed},
      {"seed_given", run.seed_given},
      {"reuse_prompts", run.reuse_prompts},
      {"warmup_requests", run.warmup_requests},
      {"request_timeout_s", run.request_timeout_s},
      {"connect_timeout_s", run.connect_timeout_s},
      {"ttft_timeout_s", run.ttft_timeout_s},
      {"stall_timeout_s", run.stall_timeout_s},
      {"ready_timeout_s", run.ready_timeout_s},
      {"startup_timeout_s", run.startup_timeout_s},
      {"unreachable_timeout_s", run.unreachable_timeout_s},
      {"per_chunk_usage", std::string(per_chunk_usage_name(run.server.per_chunk_usage))},
      {"flush_cache", run.server.flush_cache},
      {"answer_check", run.server.answer_check},
      {"repeat", run.repeat},
      {"gate_on", std::string(gate::gate_on_name(run.output.gate_on))},
      {"shard_index", run.shard_index},
      {"shard_count", run.shard_count},
      {"start_at", run.start_at.empty() ? nlohmann::json() : nlohmann::json(run.start_at)},
      // Null when not given: the per-GPU and cost figures are then unknown.
      {results::key::gpus, run.gpus ? nlohmann::json(*run.gpus) : nlohmann::json()},
      {results::key::gpu_hour_price,
       run.gpu_hour_price ? nlohmann::json(*run.gpu_hour_price) : nlohmann::json()},
  };
  add_dataset_and_request(config, run);
  // Only for a peer's command line, so bench's own results (and their fingerprints) are as before.
  if (run.dialect != Dialect::bench) {
    config[results::key::dialect] = std::string(dialect_name(run.dialect));
    config[results::key::peer_defaults_not_taken] = run.peer_defaults_not_taken;
  }
  return config;
}

}  // namespace bench::cli
