#pragma once
// --dataset random|sharegpt|jsonl|shared-prefix: one entry point that turns the flags into the
// prompts of a run. Each dataset's own header has its rules and the peer code they follow.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/workload/prompt.hpp"

namespace bench::workload {

enum class DatasetKind { random, sharegpt, jsonl, shared_prefix };

/// "random", "sharegpt", "jsonl", "shared-prefix"; nullopt for anything else.
std::optional<DatasetKind> parse_dataset_kind(std::string_view name);
std::string_view dataset_kind_name(DatasetKind kind);

struct DatasetOptions {
  DatasetKind kind = DatasetKind::random;
  std::string path;                   // --dataset-path: the sharegpt or jsonl file
  // Requests to make (warm-up + measured). nullopt: every item once (sharegpt, jsonl), or
  // groups x questions (shared-prefix); random needs a count. A count above what the file
  // has is filled by sampling with replacement, as vLLM does (sampling.hpp).
  std::optional<std::size_t> count;
  std::int64_t input_len = 1024;      // --input-len: random prompt words; shared-prefix question
  std::int64_t output_len = 128;      // --output-len: max_tokens (jsonl: lines without one)
  double range_ratio = 0.0;           // --range-ratio (random, shared-prefix)
  std::optional<std::int64_t> sharegpt_output_len;  // --sharegpt-output-len
  std::int64_t prefix_groups = 64;        // --prefix-groups (shared-prefix)
  std::int64_t prefix_len = 2048;         // --prefix-len, words (shared-prefix)
  std::int64_t questions_per_group = 16;  // --questions-per-group (shared-prefix)
  bool shuffle = true;                // sharegpt, jsonl: shuffle the items (vLLM, SGLang)
  std::uint64_t seed = 0;             // --seed
};

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
}

struct Dataset {
  std::vector<Prompt> prompts;  // in sending order
  std::size_t distinct = 0;     // distinct items they were drawn from (< prompts.size(): repeats)
  std::string summary;          // one line for stderr: what was loaded, dropped and repeated
};

/// Throws std::invalid_argument naming the flag for a bad value (a path for a generated
/// dataset, no path for a file one, no count for random), and DatasetError naming the file
/// (and line) for a file that cannot be used.
Dataset load_dataset(const DatasetOptions& options);

}  // namespace bench::workload
