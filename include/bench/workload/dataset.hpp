#pragma once
// --dataset random|sharegpt|jsonl|shared-prefix|random-ids|trace: the flags that define a run's
// prompts. The prompts themselves come from open_prompt_source (prompt_source.hpp), on demand. Each
// dataset's own header has its rules and the peer code they follow.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/workload/length_range.hpp"
#include "bench/workload/trace.hpp"

namespace bench::workload {

enum class DatasetKind { random, sharegpt, jsonl, shared_prefix, random_ids, trace };

/// "random", "sharegpt", "jsonl", "shared-prefix", "random-ids", "trace"; nullopt otherwise.
std::optional<DatasetKind> parse_dataset_kind(std::string_view name);
std::string_view dataset_kind_name(DatasetKind kind);

struct DatasetOptions {
  DatasetKind kind = DatasetKind::random;
  std::string path;  // --dataset-path: the sharegpt, jsonl or trace file
  // Requests of one point (warm-up + measured) when a count bounds it; nullopt for a timed
  // run. A file dataset gives each point its own items while the file lasts, and beyond it
  // draws with replacement, as vLLM does (prompt_source.hpp).
  std::optional<std::size_t> count;
  std::int64_t input_len = 1024;  // --input-len: random prompt words; shared-prefix question
  std::int64_t output_len = 128;  // --output-len: max_tokens (jsonl: lines without one)
  double range_ratio = 0.0;       // --range-ratio (random, shared-prefix)
  std::optional<std::int64_t> sharegpt_output_len;  // --sharegpt-output-len
  // --sharegpt-context-len, words (tokens with --tokenizer): drop conversations whose prompt +
  // output exceed it, in place of vLLM's limits (1024 prompt, 2048 total); nullopt = vLLM's.
  std::optional<std::int64_t> sharegpt_context_len;
  std::int64_t prefix_groups = 64;        // --prefix-groups (shared-prefix)
  std::int64_t prefix_len = 2048;         // --prefix-len, words (shared-prefix)
  std::int64_t questions_per_group = 16;  // --questions-per-group (shared-prefix)
  bool shuffle = true;                    // sharegpt, jsonl: shuffle the items (vLLM, SGLang)
  std::uint64_t seed = 0;                 // --seed
  TraceOptions trace;                     // --trace-*: the trace dataset's (trace.hpp)
  // --prefix-share S[,S...] (random, prefix_share.hpp): the share of each prompt that is a system
  // prompt every request of its point sends; one share a point. Empty: none.
  std::vector<double> prefix_shares;
  // --multi-turn: sharegpt prompts carry their conversation's later human turns (follow_ups).
  bool follow_ups = false;
  // Why rows may not name images (jsonl "images"), said after the row's place and "images":
  // "only --endpoint chat sends them, not completions". Empty: they may. Not part of the
  // config: it follows from the endpoint.
  std::string images_refused;
  // vLLM's --random-range-ratio '{"input":a,"output":b}': the output length's own ratio;
  // nullopt: range_ratio's. Random datasets only.
  std::optional<double> output_range_ratio = std::nullopt;
  // How the ratios spread lengths: around the target (bench's and vLLM's), or below it
  // (SGLang's --random-range-ratio). Random datasets only.
  RangeRule range_rule = RangeRule::around;
};

/// Whether the dataset replays recorded agent sessions (--dataset trace --trace-format weka:
/// session trees, agent_trace.hpp), a multi-turn run of the trace's own sessions.
bool replays_agent_sessions(const DatasetOptions& options);

/// Whether the dataset brings the arrivals (a replayed request trace: an open loop at its rows'
/// times); weka's recorded sessions bring turns, not arrivals.
bool brings_arrivals(const DatasetOptions& options);

/// The ranges a random prompt's input length and max_tokens are drawn from.
LengthRange input_length_range(const DatasetOptions& options);
LengthRange output_length_range(const DatasetOptions& options);

/// The dataset's own settings, as the results' "config" records them (beside the struct, so a
/// new field gets its key in the same place). count, lengths and seed are the run's keys.
inline void to_json(nlohmann::json& out, const DatasetOptions& options) {
  out = {{"dataset", std::string(dataset_kind_name(options.kind))},
         {"dataset_path", options.path},
         {"range_ratio", options.range_ratio},
         {"sharegpt_output_len", options.sharegpt_output_len
                                     ? nlohmann::json(*options.sharegpt_output_len)
                                     : nlohmann::json()},
         {"prefix_groups", options.prefix_groups},
         {"prefix_len", options.prefix_len},
         {"questions_per_group", options.questions_per_group},
         {"shuffle", options.shuffle}};
  // Written only when given, so the workload fingerprint of a run without it stays the one
  // results files from before the flag carry.
  if (options.sharegpt_context_len) out["sharegpt_context_len"] = *options.sharegpt_context_len;
  if (!options.prefix_shares.empty()) out["prefix_shares"] = options.prefix_shares;
  if (options.output_range_ratio) out["output_range_ratio"] = *options.output_range_ratio;
  if (options.range_rule != RangeRule::around) {
    out["range_rule"] = std::string(range_rule_name(options.range_rule));
  }
  if (options.kind == DatasetKind::trace) out.update(trace_options_json(options.trace));
}

}  // namespace bench::workload
