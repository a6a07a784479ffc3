#pragma once
// vLLM's (`vllm bench serve`) and SGLang's (`python -m sglang.bench_serving`) benchmark flags, as
// their command lines write them, so a script runs with only the program replaced. Read as text
// here; what each means is decided once the command line's dialect is known (cli/dialect.hpp).
// The facts: vLLM vllm/benchmarks/serve.py and datasets/datasets.py, SGLang
// python/sglang/benchmark/serving.py (docs/coming-from-vllm-sglang.md).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace bench::cli {

/// The group of the peers' flags, and the one line --help prints instead of them (they parse and
/// complete; docs/coming-from-vllm-sglang.md lists them with what each becomes).
inline constexpr std::string_view kPeerFlagsGroup = "vLLM and SGLang command lines";
inline constexpr std::string_view kPeerFlagsPointer =
    "vLLM's and SGLang's flags (--backend, --host, --port, --dataset-name, --random-input-len, "
    "--gsp-*, ...) are read as theirs, with their defaults, said at start; --dialect "
    "vllm|sglang when none tells: docs/coming-from-vllm-sglang.md";

/// The peers' flags as given; nullopt or "" = not on the command line.
struct RawPeerFlags {
  std::string dialect;  // --dialect vllm|sglang: how to read a command line that names neither
  std::string backend;  // --backend: which API (and, for SGLang, which default port)
  std::string host;     // --host, --port: the server, when --base-url is not given
  std::optional<int> port;
  std::string endpoint_path;  // --endpoint given as a path (vLLM's), e.g. /v1/completions
  std::string dataset_name;   // --dataset-name random|sharegpt|generated-shared-prefix|...
  std::optional<std::int64_t> random_input_len;   // --random-input-len (SGLang: --random-input)
  std::optional<std::int64_t> random_output_len;  // --random-output-len (--random-output)
  std::string random_range_ratio;                 // a number, or vLLM's {"input":a,"output":b}
  std::optional<std::int64_t> random_prefix_len;  // vLLM's: a prefix every prompt shares
  // SGLang's generated-shared-prefix dataset (--gsp-*).
  std::optional<std::int64_t> gsp_num_groups;
  std::optional<std::int64_t> gsp_prompts_per_group;
  std::optional<std::int64_t> gsp_system_prompt_len;
  std::optional<std::int64_t> gsp_question_len;
  std::optional<std::int64_t> gsp_output_len;
  // vLLM's prefix_repetition dataset (--prefix-repetition-*).
  std::optional<std::int64_t> prefix_repetition_prefix_len;
  std::optional<std::int64_t> prefix_repetition_suffix_len;
  std::optional<std::int64_t> prefix_repetition_num_prefixes;
  std::optional<std::int64_t> prefix_repetition_output_len;
  std::optional<std::int64_t> custom_output_len;    // vLLM's custom (JSONL) dataset
  std::optional<double> mooncake_slowdown_factor;   // SGLang's mooncake trace
  std::optional<std::int64_t> mooncake_num_rounds;  // SGLang's mooncake trace
  std::string extra_request_body;                   // SGLang's name for --extra-body
  bool disable_ignore_eos = false;                  // SGLang sends ignore_eos unless this
  bool disable_stream = false;                      // SGLang's non-streamed requests (--no-stream)
  // vLLM's sampling flags, sent in every request's body as the peer sends them.
  std::optional<double> top_p;
  std::optional<std::int64_t> top_k;
  std::optional<double> min_p;
  std::optional<double> repetition_penalty;
  std::string tag;                // SGLang's --tag: its result line's "tag" (vLLM's --label)
  std::string served_model_name;  // SGLang: the model name sent (--model then names a tokenizer)
  // Accepted, and said to do nothing bench does or needs: vLLM's --skip-chat-template (bench
  // never applies a chat template to a prompt itself), SGLang's --apply-chat-template and
  // --tokenize-prompt (bench sends text), --profile (bench starts no server profiler),
  // --output-details (SGLang's result line's per-request lists).
  bool skip_chat_template = false;
  bool apply_chat_template = false;
  bool tokenize_prompt = false;
  bool profile = false;
  bool output_details = false;
};

/// The flags, listed by --help under their own group; SGLang's --num-prompt sets `num_prompts`.
/// `--endpoint` is bench's flag (a kind or, as vLLM writes it, a path: run_flags.cpp).
void add_peer_flags(CLI::App& app, RawPeerFlags& raw, std::int64_t& num_prompts);

}  // namespace bench::cli
