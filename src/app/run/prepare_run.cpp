// Everything settled before a run's clock starts: the prompts, the tokenizer and the chat
// template's overhead, the servers and their context length, the model, per-chunk usage.
#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/app/point/server_spread.hpp"
#include "bench/app/run/answer_probe.hpp"
#include "bench/app/run/run_stages.hpp"
#include "bench/app/run/tokenizer_choice.hpp"
#include "bench/app/server/readiness.hpp"
#include "bench/app/server/server_identity.hpp"
#include "bench/app/server/server_tokenizer.hpp"
#include "bench/app/server/startup_fetch.hpp"
#include "bench/app/server/target.hpp"
#include "bench/app/server/token_setup.hpp"
#include "bench/cli/exit_codes.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/sim/sim_server.hpp"
#include "bench/tokenizer/hub_cache.hpp"
#include "bench/tokenizer/tokenizer.hpp"
#include "bench/util/open_file_limit.hpp"
#include "bench/util/redact.hpp"
#include "bench/util/url.hpp"
#include "bench/workload/dataset_error.hpp"
#include "bench/workload/prompt_source.hpp"

namespace bench::app {

using nlohmann::json;

namespace {

// The prompts, once the lengths' unit is known (words, or tokens of `prepared.tokenizer`).
void open_prompts(const RunPlan& plan, PreparedRun& prepared) {
  workload::TokenLengths lengths;
  lengths.tokenizer = prepared.tokenizer.get();
  if (plan.tokenizer.input_len_includes_template && prepared.template_overhead) {
    lengths.template_tokens = prepared.template_overhead->tokens;
  }
  prepared.prompts = workload::open_prompt_source(plan.dataset, lengths);
}

void say_prompts(const RunPlan& plan, const PreparedRun& prepared, std::ostream& err) {
  if (plan.output.quiet) return;
  err << "bench: " << prepared.prompts->summary()
      << (plan.reuse_prompts ? "; --reuse-prompts: every point resends the first one's" : "")
      << "\n";
}

// The line that says at start how lengths are counted (docs/usage.md, "Lengths").
std::string lengths_line(const RunPlan& plan, const PreparedRun& prepared) {
  if (lengths_in_tokens(plan, prepared)) {
    return prepared.tokenizer != nullptr ? "tokens, counted by " + prepared.tokenizer->description()
                                         : std::string("tokens (random-ids: token ids drawn)");
  }
  const std::string why = words_reason(plan, prepared);
  if (prepared.tokenizer_none_found) {
    return "words: no tokenizer (" + why + "); --tokenizer to give one";
  }
  return "words (" + why + ")";
}

// The tokenizer (--tokenizer server's, or the one bench finds), said on stderr, and on chat the
// template's overhead.
void open_tokenizer(const RunPlan& plan, const engine::EngineOptions& engine, PreparedRun& prepared,
                    std::ostream& err) {
  const TokenServer server{prepared.target.first_base_url(),
                           prepared.urls.front(),
                           &plan.headers,
                           engine,
                           prepared.request,
                           prepared.redactor.get()};
  if (plan.tokenizer.source == TokenizerSource::server) {
    prepared.tokenizer = open_server_tokenizer(server);
  } else if (plan.tokenizer.source == TokenizerSource::automatic) {
    TokenizerChoice choice = find_tokenizer(plan, server, tokenizer::process_hub_environment());
    prepared.tokenizer = std::move(choice.tokenizer);
    prepared.words_reason = std::move(choice.words_reason);
    prepared.tokenizer_none_found = choice.none_found;
  }
  const bool quiet = plan.output.quiet;
  const bool includes_template = plan.tokenizer.input_len_includes_template;
  if (!quiet) err << "bench: lengths: " << lengths_line(plan, prepared) << "\n";
  // None found: words (--input-len-includes-template needs a given --tokenizer).
  if (prepared.tokenizer == nullptr) return;
  if (!protocol::takes_messages(prepared.request.endpoint)) return;
  prepared.template_overhead = measure_template_overhead(server, *prepared.tokenizer);
  if (!prepared.template_overhead && includes_template) {
    throw RunError(
        "--input-len-includes-template: the chat template's tokens could not be "
        "measured (no chat tokenizer on the server, no usage in a probe's answer)");
  }
  if (quiet) return;
  if (prepared.template_overhead) {
    err << fmt::format(
        "bench: chat template: {} tokens a prompt (measured by {}); {}\n",
        prepared.template_overhead->tokens, prepared.template_overhead->method,
        includes_template ? "--input-len includes them" : "--input-len counts content only");
  } else {
    err << "bench: chat template: overhead unknown (no chat tokenizer on the server, no usage "
           "in a probe's answer)\n";
  }
}

// What the server says of itself, and its max_model_len against the run's longest request:
// beyond it, a run in tokens is refused (exit 2) before a request is sent; in words, a warning
// (random) or a note that the check was not made (a dataset read in words).
void check_server_context(const RunPlan& plan, const engine::EngineOptions& engine,
                          PreparedRun& prepared, std::ostream& err) {
  // Several servers: each is asked, and the run held to the smallest context of them all.
  std::vector<ServerIdentity> servers;
  std::vector<std::string> shown_urls;
  for (const std::string& base_url : prepared.target.base_urls) {
    servers.push_back(
        probe_server_identity({base_url, &plan.headers, engine}, prepared.request.model));
    shown_urls.push_back(util::url_with_secrets_hidden(base_url));
  }
  std::vector<std::string> differences;
  prepared.server = common_identity(servers, shown_urls, differences);
  for (const std::string& difference : differences) {
    if (!plan.output.quiet) err << "bench: warning: the servers differ: " << difference << "\n";
  }
  const std::optional<ContextVerdict> verdict = check_context_fit(context_fit_of(plan, prepared));
  if (!verdict) return;
  if (verdict->refuse) throw std::invalid_argument(verdict->line);
  if (!plan.output.quiet) {
    err << (verdict->unchecked ? "bench: " : "bench: warning: ") << verdict->line << "\n";
  }
}

// Every server ready before anything else is asked of it (readiness.hpp), one after another.
void wait_for_servers(const RunPlan& plan, const engine::EngineOptions& engine,
                      const PreparedRun& prepared, std::ostream& err) {
  for (const std::string& base_url : prepared.target.base_urls) {
    wait_until_ready({base_url, &plan.headers, engine, prepared.redactor.get(),
                      plan.server.ready_timeout_ms, plan.output.quiet},
                     err);
  }
}

// Everything settled before any clock starts: the prompts, the server, its model, what counts
// the lengths (given, or found once the model is known: tokenizer_choice.hpp) with the
// template's measure, and whether the server answers per-chunk usage.
PreparedRun prepare(const RunPlan& plan, std::ostream& err) {
  PreparedRun prepared;
  const bool words = plan.tokenizer.source == TokenizerSource::words;
  prepared.tokenizer = open_given_tokenizer(plan.tokenizer, tokenizer::process_hub_environment());
  // Opened in words first, unless a tokenizer is already given: a dataset file that cannot be
  // used stops the run before anything is sent, the embedded server included. Opened again
  // once a tokenizer is found (a random dataset's opening costs nothing; a file is read twice
  // only then).
  if (prepared.tokenizer == nullptr) open_prompts(plan, prepared);
  if (words) {
    prepared.words_reason = "--tokenizer words";
    if (!plan.output.quiet) err << "bench: lengths: " << lengths_line(plan, prepared) << "\n";
  }

  prepared.target = open_target(plan.server.base_urls, plan.server.sim);
  if (prepared.target.embedded && !plan.output.quiet) {
    err << fmt::format(
        "bench: no --base-url given: benchmarking the embedded simulated server at {} ({}).\n"
        "bench: its figures describe the simulator, not a real model; pass --base-url to "
        "measure a server.\n",
        prepared.target.first_base_url(), sim::describe(plan.server.sim));
  }
  prepared.redactor = std::make_shared<const util::Redactor>(
      util::redactor_for_servers(plan.headers, prepared.target.base_urls));
  raise_open_file_limit(plan.most_concurrency + 64);
  const engine::EngineOptions engine =
      startup_engine_options(plan.engine, plan.server.startup_timeout_ms);
  if (!prepared.target.embedded) wait_for_servers(plan, engine, prepared, err);
  prepared.request = plan.request;
  for (const std::string& base_url : prepared.target.base_urls) {
    prepared.urls.push_back(
        util::url_join(base_url, protocol::endpoint_path(prepared.request.endpoint)));
  }
  if (prepared.urls.size() > 1) {
    prepared.spread = std::make_shared<const ServerSpread>(
        plan.server.weights.empty() ? std::vector<std::int64_t>(prepared.urls.size(), 1)
                                    : plan.server.weights);
  }
  if (prepared.request.model.empty()) {
    prepared.request.model =
        discover_model(prepared.target.first_base_url(), plan.headers, engine, *prepared.redactor);
  }
  if (!words) open_tokenizer(plan, engine, prepared, err);
  if (prepared.tokenizer != nullptr) open_prompts(plan, prepared);
  say_prompts(plan, prepared, err);
  check_server_context(plan, engine, prepared, err);
  const cli::PerChunkUsage per_chunk_usage = plan.server.per_chunk_usage;
  // Per-chunk usage is a stream's: a run that does not stream asks none.
  prepared.request.continuous_usage_stats =
      prepared.request.stream &&
      (per_chunk_usage == cli::PerChunkUsage::on ||
       (per_chunk_usage == cli::PerChunkUsage::auto_detect &&
        protocol::endpoint_spec(prepared.request.endpoint).per_chunk_usage &&
        probe_per_chunk_usage(prepared.urls.front(), plan.headers, prepared.request, engine,
                              *prepared.redactor)));
  if (plan.server.answer_check) {
    prepared.answer_check = run_answer_check({prepared.urls, &plan.headers, prepared.request,
                                              engine, plan.limits, prepared.redactor.get()},
                                             plan.output.quiet, err);
  }
  return prepared;
}

}  // namespace

// Prepare, mapping what stops a run before it starts to its exit code.
std::optional<PreparedRun> plan_and_prepare(const RunPlan& plan, int& failure_code,
                                            std::ostream& err) {
  try {
    return prepare(plan, err);
  } catch (const RunError& error) {
    err << "bench: error: " << error.what() << "\n";
    failure_code = cli::kExitRunFailed;
  } catch (const tokenizer::TokenizerError& error) {  // a tokenizer file that cannot be used
    err << "bench: error: --tokenizer " << error.what() << "\n";
    failure_code = cli::kExitUsage;
  } catch (const workload::DatasetError& error) {  // a dataset file that cannot be used
    err << "bench: error: " << error.what() << "\n";
    failure_code = cli::kExitUsage;
  } catch (const std::invalid_argument& error) {  // a value the CLI let through
    err << "bench: error: " << error.what() << "\n";
    failure_code = cli::kExitUsage;
  }
  return std::nullopt;
}

}  // namespace bench::app
