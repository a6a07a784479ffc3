// vLLM's and SGLang's benchmark flags, bound as text; cli/dialect.cpp gives them their meaning.
#include "bench/cli/peer_flags.hpp"

#include "bench/cli/number_checks.hpp"
#include "bench/cli/run_flag_groups.hpp"

namespace bench::cli {

namespace {

constexpr std::int64_t kMaxLength = 10'000'000;  // as bench's own length flags

// A length in tokens (or words), or a count, of at least `least`.
CLI::Option* add_length(CLI::App& app, const std::string& names, std::optional<std::int64_t>& to,
                        const std::string& help, std::int64_t least = 1) {
  return app.add_option(names, to, help)->check(CLI::Range(least, kMaxLength));
}

void add_random_flags(CLI::App& app, RawPeerFlags& raw, std::int64_t& num_prompts) {
  add_length(app, "--random-input-len", raw.random_input_len,
             "random: prompt length (bench's --input-len)");
  add_length(app, "--random-output-len", raw.random_output_len,
             "random: max_tokens (bench's --output-len; SGLang's default 1024)");
  // SGLang's docs write argparse's abbreviations: options of their own (not aliases), so the
  // dialect can tell them (cli/dialect.cpp), into the same values.
  add_length(app, "--random-input", raw.random_input_len, "SGLang's --random-input-len");
  add_length(app, "--random-output", raw.random_output_len, "SGLang's --random-output-len");
  app.add_option("--num-prompt", num_prompts, "SGLang's --num-prompts")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000'000}));
  app.add_option("--random-range-ratio", raw.random_range_ratio,
                 "random: vLLM's r (lengths uniform in L x [1-r, 1+r]) or "
                 "'{\"input\":a,\"output\":b}'; SGLang's r (uniform in [L r, L], default 0)");
  add_length(app, "--random-prefix-len", raw.random_prefix_len,
             "random (vLLM): a prefix of this length every prompt starts with, before its "
             "--random-input-len",
             0);
}

void add_dataset_flags(CLI::App& app, RawPeerFlags& raw) {
  app.add_option("--dataset-name", raw.dataset_name,
                 "The peers' dataset: random, sharegpt, random-ids, generated-shared-prefix, "
                 "prefix_repetition, custom, mooncake (bench's --dataset)");
  add_length(app, "--gsp-num-groups", raw.gsp_num_groups, "generated-shared-prefix: groups");
  add_length(app, "--gsp-prompts-per-group", raw.gsp_prompts_per_group,
             "generated-shared-prefix: requests per group");
  add_length(app, "--gsp-system-prompt-len", raw.gsp_system_prompt_len,
             "generated-shared-prefix: each group's system prompt length");
  add_length(app, "--gsp-question-len", raw.gsp_question_len,
             "generated-shared-prefix: each question's length");
  add_length(app, "--gsp-output-len", raw.gsp_output_len, "generated-shared-prefix: max_tokens");
  add_length(app, "--prefix-repetition-prefix-len", raw.prefix_repetition_prefix_len,
             "prefix_repetition: each shared prefix's length");
  add_length(app, "--prefix-repetition-suffix-len", raw.prefix_repetition_suffix_len,
             "prefix_repetition: each request's own text after it");
  add_length(app, "--prefix-repetition-num-prefixes", raw.prefix_repetition_num_prefixes,
             "prefix_repetition: distinct prefixes");
  add_length(app, "--prefix-repetition-output-len", raw.prefix_repetition_output_len,
             "prefix_repetition: max_tokens");
  add_length(app, "--custom-output-len", raw.custom_output_len,
             "custom (vLLM's JSONL): max_tokens of lines without one (vLLM's default 256); -1: "
             "each line's own \"output_tokens\" (or \"max_tokens\")",
             -1);
  app.add_option("--mooncake-slowdown-factor", raw.mooncake_slowdown_factor,
                 "mooncake: the trace's gaps times this (bench's --trace-speed is its inverse)")
      ->check(positive_number());
  add_length(app, "--mooncake-num-rounds", raw.mooncake_num_rounds,
             "mooncake: rounds of each conversation (only 1 is supported)");
}

// vLLM's sampling flags (serve.py's "sampling parameters" group), sent in the request body.
void add_sampling_flags(CLI::App& app, RawPeerFlags& raw) {
  app.add_option("--top-p", raw.top_p, "top_p sent in every request")->check(CLI::Range(0.0, 1.0));
  app.add_option("--top-k", raw.top_k, "top_k sent in every request")
      ->check(CLI::Range(std::int64_t{-1}, kMaxLength));
  app.add_option("--min-p", raw.min_p, "min_p sent in every request")->check(CLI::Range(0.0, 1.0));
  app.add_option("--repetition-penalty", raw.repetition_penalty,
                 "repetition_penalty sent in every request")
      ->check(positive_number());
}

// Flags whose work bench does not do or need: accepted, and said so at start.
void add_noop_flags(CLI::App& app, RawPeerFlags& raw) {
  app.add_flag("--skip-chat-template,--custom-skip-chat-template", raw.skip_chat_template,
               "vLLM: accepted; bench never applies a chat template to a prompt itself");
  app.add_flag("--use-chat-template", raw.apply_chat_template,
               "InferenceX's copy of vLLM's client: as --apply-chat-template");
  app.add_flag("--apply-chat-template", raw.apply_chat_template,
               "SGLang: accepted; bench sends the prompt as text (a chat endpoint's server "
               "applies its template)");
  app.add_flag("--tokenize-prompt", raw.tokenize_prompt, "SGLang: accepted; bench sends text");
  app.add_flag("--profile", raw.profile, "accepted; bench starts no server profiler");
  app.add_flag("--output-details", raw.output_details,
               "SGLang: accepted; the per-request records are --save-requests");
}

}  // namespace

void add_peer_flags(CLI::App& app, RawPeerFlags& raw, std::int64_t& num_prompts) {
  const FlagGroup group(app, std::string(kPeerFlagsGroup));
  app.add_option("--dialect", raw.dialect,
                 "Read the command line as vLLM's or SGLang's, with its defaults (otherwise "
                 "told by the flags it uses; vLLM's when none tells)")
      ->check(CLI::IsMember({"vllm", "sglang"}));
  app.add_option("--backend", raw.backend,
                 "The peers' API choice: openai, vllm (completions), openai-chat, vllm-chat, "
                 "sglang-oai-chat (chat), sglang, sglang-oai (completions)");
  app.add_option("--host", raw.host, "Server host when --base-url is not given (as the peers)");
  app.add_option("--port", raw.port, "Server port when --base-url is not given (as the peers)")
      ->check(CLI::Range(1, 65535));
  add_dataset_flags(app, raw);
  add_random_flags(app, raw, num_prompts);
  app.add_option("--extra-request-body", raw.extra_request_body, "SGLang's name for --extra-body");
  app.add_flag("--disable-ignore-eos", raw.disable_ignore_eos,
               "SGLang: do not send ignore_eos (which it sends by default)");
  app.add_flag("--disable-stream", raw.disable_stream,
               "SGLang: non-streamed requests (bench's --no-stream)");
  app.add_option("--tag", raw.tag, "SGLang: the result line's \"tag\" (vLLM's --label)");
  app.add_option("--served-model-name", raw.served_model_name,
                 "SGLang: the model name sent (its --model then names the tokenizer)");
  add_sampling_flags(app, raw);
  add_noop_flags(app, raw);
}

}  // namespace bench::cli
