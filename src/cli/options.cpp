#include "bench/cli/options.hpp"

#include <cstdlib>
#include <map>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench/cli/exit_codes.hpp"
#include "bench/cli/sim_flags.hpp"

namespace bench::cli {

namespace {

// A bad value found after CLI11 has parsed: names the flag and the value.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void setup_run_flags(CLI::App& app, RunOptions& run, std::string& output_format) {
  app.add_option("--base-url", run.base_url,
                 "Server root URL, e.g. http://127.0.0.1:8000 (env OPENAI_BASE_URL). "
                 "Absent: bench starts its embedded simulated server on a free loopback port")
      ->envname("OPENAI_BASE_URL");
  app.add_option("--endpoint", run.endpoint, "API to call: chat (/v1/chat/completions) or "
                                             "completions (/v1/completions)")
      ->check(CLI::IsMember({"chat", "completions"}))
      ->capture_default_str();
  app.add_option("--model", run.model, "Model name to send (default: first id of GET /v1/models)");
  app.add_option("--api-key", run.api_key,
                 "API key, sent as 'Authorization: Bearer KEY' (env OPENAI_API_KEY); never printed")
      ->envname("OPENAI_API_KEY");
  app.add_option("--concurrency,--max-concurrency", run.concurrency,
                 "Requests in flight at once (closed loop)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000}))
      ->capture_default_str();
  app.add_option("--num-prompts", run.num_prompts, "Measured requests to send")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000'000}))
      ->capture_default_str();
  app.add_option("--input-len", run.input_len, "Prompt length in words (random dataset)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}))
      ->capture_default_str();
  app.add_option("--output-len", run.output_len, "max_tokens of every request")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}))
      ->capture_default_str();
  app.add_flag("--ignore-eos", run.ignore_eos,
               "Send ignore_eos: true so every request generates output-len tokens "
               "(vLLM, SGLang, llama.cpp)");
  app.add_option("--temperature", run.temperature, "Sampling temperature (default: server's)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--extra-body", run.extra_body,
                 "JSON object merged into every request body, e.g. '{\"top_p\":0.9}'");
  app.add_option("--header", run.headers, "Extra request header 'Name: value' (repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--seed", run.seed, "Seed for prompt generation")->capture_default_str();
  app.add_option("--warmup-requests", run.warmup_requests,
                 "Requests sent before the measured phase, not measured")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1'000'000}))
      ->capture_default_str();
  app.add_option("--request-timeout", run.request_timeout_s,
                 "Whole-request time limit, seconds")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--connect-timeout", run.connect_timeout_s, "Connection time limit, seconds")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--ttft-timeout", run.ttft_timeout_s,
                 "Fail a request with no generated text after this many seconds (0 = no limit)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--stall-timeout", run.stall_timeout_s,
                 "Fail a request whose stream goes silent this many seconds (0 = no limit)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--per-chunk-usage", run.per_chunk_usage,
                 "Ask for usage on every chunk (vLLM continuous_usage_stats) to know each "
                 "chunk's token count exactly: auto (probe the server first), on, off")
      ->check(CLI::IsMember({"auto", "on", "off"}))
      ->capture_default_str();
  app.add_option("--output-format", output_format,
                 "What stdout holds: text (human report) or json (only the results object)")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  app.add_option("--output-file", run.output_file, "Also write the JSON results to this file");
  app.add_option("--save-requests", run.save_requests,
                 "Write one JSON line per request (timings, chunks, tokens, status) to this file");
  app.add_flag("--insecure", run.insecure, "Do not verify TLS certificates");
  app.add_option("--cacert", run.cacert, "CA certificate bundle for TLS")
      ->check(CLI::ExistingFile);
  app.add_option("--grace", run.grace_s,
                 "After Ctrl-C/SIGTERM: seconds in-flight requests may finish before cancelling")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_flag("--quiet,-q", run.quiet, "No progress or notes on stderr");
  add_sim_flags(app, run.sim, "--sim-");
}

bool has_crlf(const std::string& text) { return text.find_first_of("\r\n") != std::string::npos; }

// Checks that CLI11's declarative validators cannot express.
void validate_run(RunOptions& run) {
  if (!run.base_url.empty()) {
    if (run.base_url.rfind("http://", 0) != 0 && run.base_url.rfind("https://", 0) != 0) {
      throw UsageError(fmt::format(
          "--base-url: '{}' is not an http:// or https:// URL", run.base_url));
    }
    while (!run.base_url.empty() && run.base_url.back() == '/') run.base_url.pop_back();
    // Users often paste the OpenAI client's base (…/v1); bench adds /v1/... itself.
    if (run.base_url.size() > 3 && run.base_url.ends_with("/v1")) {
      run.base_url.resize(run.base_url.size() - 3);
    }
  }
  if (!run.extra_body.empty()) {
    const nlohmann::json parsed = nlohmann::json::parse(run.extra_body, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
      throw UsageError(fmt::format("--extra-body: '{}' is not a JSON object", run.extra_body));
    }
  }
  for (const std::string& header : run.headers) {
    const auto colon = header.find(':');
    if (colon == std::string::npos || colon == 0) {
      throw UsageError(fmt::format("--header: '{}' is not 'Name: value'", header));
    }
    if (has_crlf(header)) {
      throw UsageError("--header: a header may not contain CR or LF characters");
    }
  }
  if (has_crlf(run.api_key)) {
    throw UsageError("--api-key: the key may not contain CR or LF characters");
  }
  if (has_crlf(run.model)) throw UsageError("--model: the name may not contain CR or LF");
}

}  // namespace

ParseResult parse_cli(int argc, const char* const* argv) {
  ParseResult result;
  CLI::App app{"bench: load generator for OpenAI-compatible LLM inference servers.\n"
               "Reports output, input and total token throughput separately, with TTFT, ITL, "
               "TPOT and E2E latency percentiles.",
               "bench"};
  app.set_version_flag("--version", std::string("bench ") + BENCH_VERSION);
  std::string output_format = "text";
  setup_run_flags(app, result.run, output_format);

  CLI::App* serve_sim = app.add_subcommand(
      "serve-sim", "Run the embedded OpenAI-compatible simulated server in the foreground");
  setup_serve_sim_flags(*serve_sim, result.serve_sim);

  try {
    app.parse(argc, argv);
    if (serve_sim->parsed()) {
      result.command = Command::serve_sim;
      return result;
    }
    validate_run(result.run);
    result.run.output_format = output_format == "json" ? OutputFormat::json : OutputFormat::text;
  } catch (const CLI::CallForHelp&) {
    result.exit_code = kExitOk;
    result.message = serve_sim->parsed() ? serve_sim->help() : app.help();
  } catch (const CLI::CallForVersion&) {
    result.exit_code = kExitOk;
    result.message = std::string("bench ") + BENCH_VERSION + "\n";
  } catch (const CLI::ParseError& error) {
    result.exit_code = kExitUsage;
    result.message = fmt::format("bench: error: {}\nRun 'bench --help' for the flags.\n",
                                 error.what());
  } catch (const UsageError& error) {
    result.exit_code = kExitUsage;
    result.message = fmt::format("bench: error: {}\n", error.what());
  }
  return result;
}

nlohmann::json options_to_json(const RunOptions& run) {
  nlohmann::json config = {
      {"base_url", run.base_url},
      {"endpoint", run.endpoint},
      {"model", run.model},
      {"api_key", run.api_key.empty() ? "" : "<redacted>"},
      {"concurrency", run.concurrency},
      {"num_prompts", run.num_prompts},
      {"dataset", "random"},
      {"input_len", run.input_len},
      {"output_len", run.output_len},
      {"ignore_eos", run.ignore_eos},
      {"temperature", run.temperature ? nlohmann::json(*run.temperature) : nlohmann::json()},
      {"seed", run.seed},
      {"warmup_requests", run.warmup_requests},
      {"request_timeout_s", run.request_timeout_s},
      {"connect_timeout_s", run.connect_timeout_s},
      {"ttft_timeout_s", run.ttft_timeout_s},
      {"stall_timeout_s", run.stall_timeout_s},
      {"per_chunk_usage", run.per_chunk_usage},
  };
  config["extra_body"] = run.extra_body.empty() ? nlohmann::json::object()
                                                : nlohmann::json::parse(run.extra_body);
  // Header names only: values may carry credentials.
  nlohmann::json header_names = nlohmann::json::array();
  for (const std::string& header : run.headers) {
    header_names.push_back(header.substr(0, header.find(':')));
  }
  config["header_names"] = header_names;
  return config;
}

}  // namespace bench::cli
