#pragma once
// Which tokenizer counts a run's lengths, and when none: why they are words. Given with
// --tokenizer (a tokenizer.json, a Hugging Face repo id read from the hub cache, the server's
// /tokenize, or words), or found, as vLLM's and SGLang's clients count in the model's tokens:
// the model's tokenizer.json (a local model directory, or the hub cache: tokenizer/hub_cache.hpp),
// else the server's /tokenize where the dataset makes its prompts one by one (random, trace)
// and every prompt can be made before its point runs (point_prompts.hpp), else words, saying
// why.
#include <memory>
#include <string>

#include "bench/app/plan/run_plan.hpp"
#include "bench/app/server/token_setup.hpp"
#include "bench/tokenizer/hub_cache.hpp"
#include "bench/tokenizer/tokenizer.hpp"

namespace bench::app {

struct TokenizerChoice {
  std::shared_ptr<const tokenizer::Tokenizer> tokenizer;  // null: lengths are words
  std::string words_reason;                               // why words; empty with a tokenizer
  bool none_found = false;  // a tokenizer was looked for and none could be had
};

/// --tokenizer PATH or REPO_ID, opened before anything is sent; null for every other source.
/// Throws tokenizer::TokenizerError in one line (a file that cannot be used, a repo id not in
/// the cache or without a tokenizer.json).
std::shared_ptr<const tokenizer::Tokenizer> open_given_tokenizer(
    const TokenizerPlan& plan, const tokenizer::HubEnvironment& env);

/// With no --tokenizer, once the model is known (`server.request.model`): what counts lengths.
/// The server is asked only when `plan`'s dataset makes prompts one at a time.
TokenizerChoice find_tokenizer(const RunPlan& plan, const TokenServer& server,
                               const tokenizer::HubEnvironment& env);

}  // namespace bench::app
