#include "bench/workload/dataset.hpp"

#include <cstddef>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench/workload/jsonl_dataset.hpp"
#include "bench/workload/random_prompts.hpp"
#include "bench/workload/sampling.hpp"
#include "bench/workload/shared_prefix.hpp"
#include "bench/workload/sharegpt.hpp"

namespace bench::workload {
namespace {

// What a count did to the items: "; 40 requests, 10 of them repeats (sampled with
// replacement, as vLLM)" or "; 5 of 30 requests".
std::string count_note(std::size_t requests, std::size_t distinct) {
  if (requests > distinct) {
    return "; " + std::to_string(requests) + " requests, " + std::to_string(requests - distinct) +
           " of them repeats (sampled with replacement, as vLLM does)";
  }
  if (requests < distinct) {
    return "; " + std::to_string(requests) + " of them sent";
  }
  return "";
}

std::string length_note(std::string_view what, std::int64_t len, double range_ratio) {
  const LengthRange range = length_range(len, range_ratio);
  if (range.low == range.high) return std::string(what) + " " + std::to_string(len);
  return std::string(what) + " " + std::to_string(range.low) + "-" + std::to_string(range.high);
}

Dataset random_dataset(const DatasetOptions& options) {
  if (!options.count) throw std::invalid_argument("--dataset random needs a request count");
  Dataset dataset;
  dataset.prompts = make_random_prompts({static_cast<std::int64_t>(*options.count),
                                         options.input_len, options.output_len, options.seed,
                                         options.range_ratio});
  dataset.distinct = dataset.prompts.size();
  std::ostringstream summary;
  summary << "random: " << dataset.prompts.size() << " prompts, "
          << length_note("input", options.input_len, options.range_ratio) << " words, "
          << length_note("max_tokens", options.output_len, options.range_ratio);
  if (options.range_ratio > 0) summary << " (range ratio " << options.range_ratio << ")";
  dataset.summary = summary.str();
  return dataset;
}

Dataset sharegpt_dataset(const DatasetOptions& options) {
  ShareGptOptions sharegpt;
  sharegpt.path = options.path;
  sharegpt.seed = options.seed;
  sharegpt.output_len = options.sharegpt_output_len;
  sharegpt.shuffle = options.shuffle;
  sharegpt.count = options.count;
  ShareGptDataset loaded = load_sharegpt(sharegpt);
  const ShareGptStats& stats = loaded.stats;
  Dataset dataset;
  dataset.distinct = stats.usable;
  dataset.prompts = std::move(loaded.prompts);
  std::ostringstream summary;
  summary << "sharegpt " << options.path << ": " << stats.entries << " conversations, "
          << stats.usable << " usable (dropped: " << stats.malformed << " malformed, "
          << stats.too_few_turns << " under 2 turns, " << stats.no_reply
          << " without a human turn and reply, " << stats.too_short << " under "
          << sharegpt.min_len << " words, " << stats.too_long << " over "
          << sharegpt.max_prompt_len << "/" << sharegpt.max_total_len << " words)";
  if (options.sharegpt_output_len) summary << ", max_tokens " << *options.sharegpt_output_len;
  summary << count_note(dataset.prompts.size(), dataset.distinct);
  dataset.summary = summary.str();
  return dataset;
}

Dataset jsonl_dataset(const DatasetOptions& options) {
  JsonlOptions jsonl;
  jsonl.path = options.path;
  jsonl.seed = options.seed;
  jsonl.output_len = options.output_len;
  jsonl.shuffle = options.shuffle;
  jsonl.count = options.count;
  JsonlDataset loaded = load_jsonl(jsonl);
  Dataset dataset;
  dataset.distinct = loaded.requests;
  dataset.prompts = std::move(loaded.prompts);
  dataset.summary = "jsonl " + options.path + ": " + std::to_string(loaded.requests) +
                    " requests on " + std::to_string(loaded.lines) + " lines" +
                    count_note(dataset.prompts.size(), dataset.distinct);
  return dataset;
}

Dataset shared_prefix_dataset(const DatasetOptions& options) {
  SharedPrefixOptions shared;
  shared.groups = options.prefix_groups;
  shared.prefix_len = options.prefix_len;
  shared.questions_per_group = options.questions_per_group;
  shared.question_len = options.input_len;
  shared.output_len = options.output_len;
  shared.range_ratio = options.range_ratio;
  shared.seed = options.seed;
  Dataset dataset;
  std::vector<Prompt> prompts = make_shared_prefix_prompts(shared);
  dataset.distinct = prompts.size();
  dataset.prompts = fit_to_count(std::move(prompts), options.count.value_or(dataset.distinct),
                                 options.seed);
  std::ostringstream summary;
  summary << "shared-prefix: " << shared.groups << " groups x " << shared.questions_per_group
          << " questions = " << dataset.distinct << " requests, prefix " << shared.prefix_len
          << " words, " << length_note("question", shared.question_len, shared.range_ratio)
          << " words, " << length_note("max_tokens", shared.output_len, shared.range_ratio)
          << count_note(dataset.prompts.size(), dataset.distinct);
  dataset.summary = summary.str();
  return dataset;
}

}  // namespace

std::optional<DatasetKind> parse_dataset_kind(std::string_view name) {
  if (name == "random") return DatasetKind::random;
  if (name == "sharegpt") return DatasetKind::sharegpt;
  if (name == "jsonl") return DatasetKind::jsonl;
  if (name == "shared-prefix") return DatasetKind::shared_prefix;
  return std::nullopt;
}

std::string_view dataset_kind_name(DatasetKind kind) {
  switch (kind) {
    case DatasetKind::random:
      return "random";
    case DatasetKind::sharegpt:
      return "sharegpt";
    case DatasetKind::jsonl:
      return "jsonl";
    case DatasetKind::shared_prefix:
      return "shared-prefix";
  }
  return "random";
}

Dataset load_dataset(const DatasetOptions& options) {
  const bool reads_file =
      options.kind == DatasetKind::sharegpt || options.kind == DatasetKind::jsonl;
  const std::string name(dataset_kind_name(options.kind));
  if (reads_file && options.path.empty()) {
    throw std::invalid_argument("--dataset " + name + " needs --dataset-path FILE");
  }
  if (!reads_file && !options.path.empty()) {
    throw std::invalid_argument("--dataset-path is read only by --dataset sharegpt or jsonl, "
                                "not by --dataset " + name);
  }
  switch (options.kind) {
    case DatasetKind::sharegpt:
      return sharegpt_dataset(options);
    case DatasetKind::jsonl:
      return jsonl_dataset(options);
    case DatasetKind::shared_prefix:
      return shared_prefix_dataset(options);
    case DatasetKind::random:
      break;
  }
  return random_dataset(options);
}

}  // namespace bench::workload
