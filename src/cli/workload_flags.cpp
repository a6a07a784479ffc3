// The workload's flags: where prompts come from, their lengths and how they are counted, the
// sampling settings sent, the seed.
#include "bench/cli/run_flag_groups.hpp"

#include "bench/cli/choice_flag.hpp"
#include "bench/cli/image_flags.hpp"
#include "bench/cli/multi_turn_flags.hpp"
#include "bench/cli/number_checks.hpp"
#include "bench/cli/prefix_share_flag.hpp"
#include "bench/cli/tool_flags.hpp"

namespace bench::cli {

namespace {

// --dataset trace's own flags (workload/trace.hpp).
void add_trace_flags(CLI::App& app, workload::TraceOptions& trace, RawRunFlags& raw) {
  add_choice(app, "--trace-format", trace.format,
             {workload::TraceFormat::mooncake, workload::TraceFormat::azure,
              workload::TraceFormat::burstgpt, workload::TraceFormat::weka},
             workload::trace_format_name,
             "trace: the file's layout: mooncake (JSON lines: timestamp ms, input_length, "
             "output_length, hash_ids), azure (CSV: TIMESTAMP, ContextTokens, GeneratedTokens), "
             "burstgpt (CSV: Timestamp, Model, Request tokens, Response tokens, ...), weka "
             "(recorded agent sessions, a file or a directory of them: replayed as session "
             "trees, --concurrency of them at once)")
      ->default_str("");  // none: --dataset trace needs it
  app.add_option("--trace-max-gap", trace.max_gap_s,
                 "trace weka: the longest wait, seconds, between a reply and the agent's next "
                 "request (or a subagent's spawn), before --trace-speed")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app.add_option("--trace-speed", trace.speed,
                 "trace: time compression: arrivals come at the trace's offsets divided by this "
                 "(2 = twice as fast)")
      ->check(positive_number())
      ->capture_default_str();
  app.add_option("--trace-window", raw.trace_window,
                 "trace: replay only the rows at trace seconds [START, END) from its first row, "
                 "e.g. 60-120; offsets then count from START");
  app.add_option("--trace-model", trace.model, "trace (burstgpt): only the rows of this Model");
  app.add_option("--trace-log-type", trace.log_type,
                 "trace (burstgpt): only the rows of this Log Type ('Conversation log', "
                 "'API log')");
}

}  // namespace

void add_workload_flags(CLI::App& app, RunOptions& run, RawRunFlags& raw) {
  add_choice(app, "--dataset", run.dataset.kind,
             {workload::DatasetKind::random, workload::DatasetKind::sharegpt,
              workload::DatasetKind::jsonl, workload::DatasetKind::shared_prefix,
              workload::DatasetKind::random_ids, workload::DatasetKind::trace},
             workload::dataset_kind_name,
             "Where prompts come from: random (words), sharegpt (ShareGPT JSON file), jsonl "
             "(one {\"prompt\"} or {\"messages\"} a line), shared-prefix (groups sharing a "
             "system prompt, for prefix caching), random-ids (token ids as the prompt; "
             "completions), trace (replay a request trace: --trace-format)");
  app.add_option("--dataset-path", run.dataset.path,
                 "The sharegpt, jsonl or trace file (with --trace-format weka, or a directory "
                 "of them)")
      ->check(CLI::ExistingPath);
  add_trace_flags(app, run.dataset.trace, raw);
  add_multi_turn_flags(app, run.multi_turn, raw.multi_turn);
  add_tool_flags(app, raw.tools);
  add_image_flags(app, run.images, raw.images);
  app.add_option("--range-ratio", run.dataset.range_ratio,
                 "random: each input and output length uniform in len x [1-r, 1+r] (vLLM's)")
      ->check(number_range(0.0, 1.0))
      ->capture_default_str();
  add_prefix_share_flag(app, raw.prefix_share);
  app.add_option("--sharegpt-output-len", run.dataset.sharegpt_output_len,
                 "sharegpt: max_tokens of every request instead of its reply's length")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}));
  app.add_option("--sharegpt-context-len", run.dataset.sharegpt_context_len,
                 "sharegpt: drop conversations whose prompt + output exceed this many tokens "
                 "(words without a tokenizer), instead of vLLM's 1024 prompt and 2048 total "
                 "limits (SGLang's --sharegpt-context-len)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}));
  app.add_option("--prefix-groups", run.dataset.prefix_groups,
                 "shared-prefix: groups, each with its own long system prompt")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000}))
      ->capture_default_str();
  app.add_option("--prefix-len", run.dataset.prefix_len,
                 "shared-prefix: words of each system prompt")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}))
      ->capture_default_str();
  app.add_option("--questions-per-group", run.dataset.questions_per_group,
                 "shared-prefix: requests per group (questions of --input-len words)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000}))
      ->capture_default_str();
  app.add_flag("--no-shuffle{false}", run.dataset.shuffle,
               "sharegpt, jsonl: send the items in file order instead of shuffled by --seed");
  app.add_option("--tokenizer", run.tokenizer,
                 "What counts lengths: a Hugging Face repo id (its tokenizer.json in the HF "
                 "cache; bench does not download), a tokenizer.json, 'server' (its /tokenize) or "
                 "'words'. Default: the model's tokenizer.json in the HF cache, else the "
                 "server's /tokenize, else words (said at start)");
  app.add_flag("--trust-remote-code", run.trust_remote_code,
               "Accepted from vLLM's and SGLang's command lines, and does nothing: bench reads "
               "tokenizer.json itself and runs no model code");
  app.add_flag("--input-len-includes-template", run.input_len_includes_template,
               "chat with --tokenizer: --input-len counts the chat template's tokens too, so "
               "the server counts exactly --input-len prompt tokens");
  app.add_option("--input-len", run.input_len,
                 "Prompt length in tokens, exactly (random), or words when no tokenizer can be "
                 "had (--tokenizer); question length in words (shared-prefix)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}))
      ->capture_default_str();
  app.add_option("--output-len", run.output_len, "max_tokens of every request")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{10'000'000}))
      ->capture_default_str();
  app.add_flag("--ignore-eos", run.ignore_eos,
               "Send ignore_eos: true so every request generates output-len tokens "
               "(vLLM, SGLang, llama.cpp)");
  app.add_option("--temperature", run.temperature, "Sampling temperature (default: server's)")
      ->check(non_negative_number());
  app.add_option("--extra-body", run.extra_body,
                 "JSON object merged into every request body, e.g. '{\"top_p\":0.9}'");
  app.add_option("--seed", run.seed,
                 "Seed of the prompts, their lengths, file order and arrivals; the same seed "
                 "sends the same requests (default: a new one each run, recorded in the "
                 "results)")
      // CLI11 reads "-1" into an unsigned seed as 2^64 - 1, silently: refused instead.
      ->check(non_negative_number());
  app.add_flag("--reuse-prompts", run.reuse_prompts,
               "Send the same prompts at every point of a sweep and on every pass of a "
               "--duration run (cache-warm measurement; said in the report). Default: every "
               "request's prompt is new");
}

}  // namespace bench::cli
