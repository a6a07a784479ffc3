#include "bench/app/run/tokenizer_choice.hpp"

#include <filesystem>
#include <optional>
#include <system_error>

#include <fmt/format.h>

#include "bench/app/point/early_stop.hpp"
#include "bench/app/run/point_prompts.hpp"
#include "bench/app/server/tokenizer_files.hpp"
#include "bench/workload/agent_block_text.hpp"

namespace bench::app {

namespace {

namespace fs = std::filesystem;
using tokenizer::HubLookup;
using tokenizer::HubLookupStatus;

// vLLM and SGLang serve a model from a local directory under its path as the model's name.
std::optional<fs::path> local_tokenizer_file(const std::string& model) {
  std::error_code error;
  const fs::path file = fs::path(model) / "tokenizer.json";
  if (model.empty() || !fs::is_regular_file(file, error)) return std::nullopt;
  return file;
}

// The datasets whose prompts bench makes one at a time to a length, where the server's
// /tokenize costs a few calls a prompt; a file dataset would cost one for each of its items.
bool makes_prompts_to_length(workload::DatasetKind kind) {
  return kind == workload::DatasetKind::random || kind == workload::DatasetKind::trace;
}

// Why no tokenizer is looked for: the run counts words whatever it is given (--tokenizer is
// refused with --multi-turn; shared-prefix's lengths are words), or needs none (random-ids draws
// token ids; empty reason). A weka replay is a multi-turn run that counts tokens.
std::optional<std::string> no_search_reason(const RunPlan& plan) {
  if (plan.multi_turn.enabled && !workload::replays_agent_sessions(plan.dataset))
    return "--multi-turn counts words";
  switch (plan.dataset.kind) {
    case workload::DatasetKind::shared_prefix: return "shared-prefix counts words";
    case workload::DatasetKind::random_ids: return "";
    default: return std::nullopt;
  }
}

// The server's /tokenize, or nullopt when it has none bench can use.
std::shared_ptr<const tokenizer::Tokenizer> try_server(const TokenServer& server) {
  try {
    return open_server_tokenizer(server);
  } catch (const RunError&) {
    return nullptr;
  }
}

TokenizerChoice counted_by(std::shared_ptr<const tokenizer::Tokenizer> tokenizer) {
  return {std::move(tokenizer), "", false};
}

}  // namespace

std::shared_ptr<const tokenizer::Tokenizer> open_given_tokenizer(
    const TokenizerPlan& plan, const tokenizer::HubEnvironment& env) {
  if (plan.source == TokenizerSource::file) return open_tokenizer_file(plan.name);
  if (plan.source != TokenizerSource::hub) return nullptr;
  const HubLookup lookup =
      tokenizer::find_cached_tokenizer(plan.name, tokenizer::hub_cache_dir(env));
  if (lookup.status != HubLookupStatus::found) {
    throw tokenizer::TokenizerError(tokenizer::hub_lookup_problem(plan.name, lookup));
  }
  return open_tokenizer_file(lookup.path.string());
}

TokenizerChoice find_tokenizer(const RunPlan& plan, const TokenServer& server,
                               const tokenizer::HubEnvironment& env) {
  if (const auto reason = no_search_reason(plan)) return {nullptr, *reason, false};
  const std::string& model = server.request.model;
  const fs::path cache = tokenizer::hub_cache_dir(env);
  std::string why = fmt::format("no tokenizer.json for '{}' in the Hugging Face cache at {}", model,
                                cache.string());
  std::optional<fs::path> file = local_tokenizer_file(model);
  if (!file && tokenizer::looks_like_repo_id(model)) {
    const HubLookup lookup = tokenizer::find_cached_tokenizer(model, cache);
    if (lookup.status == HubLookupStatus::found) file = lookup.path;
    if (lookup.status == HubLookupStatus::slow_tokenizer) {
      why = fmt::format("'{}' has only a slow tokenizer in the Hugging Face cache", model);
    }
  }
  if (file) {
    // A file bench cannot read (a Unigram model) is no reason to stop a run nobody asked to
    // count with it: the next source is tried, and the line says why.
    try {
      return counted_by(open_tokenizer_file(file->string()));
    } catch (const tokenizer::TokenizerError& error) {
      why = error.what();
    }
  }
  if (workload::replays_agent_sessions(plan.dataset))
    return {nullptr, why + "; " + std::string(workload::kNoServerTokenizeReason), true};
  if (!makes_prompts_to_length(plan.dataset.kind)) {
    return {nullptr,
            fmt::format("{}; a dataset file's items are not sent to the server's /tokenize "
                        "unasked (--tokenizer server)",
                        why),
            true};
  }
  if (!all_prompts_made_ahead(plan)) {
    return {nullptr,
            fmt::format("{}; the server's /tokenize would be asked while the run is measured "
                        "(--duration, a warm-up by time, or over {} requests a point), so it is "
                        "not unasked (--tokenizer server)",
                        why, kMostPromptsAhead),
            true};
  }
  if (auto served = try_server(server)) return counted_by(std::move(served));
  return {nullptr, why + ", and the server has no /tokenize bench can use", true};
}

}  // namespace bench::app
