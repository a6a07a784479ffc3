#include "bench/workload/prompt_source.hpp"

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench/workload/jsonl_dataset.hpp"
#include "bench/workload/random_prompts.hpp"
#include "bench/workload/sharegpt.hpp"
#include "random_text.hpp"

namespace bench::workload {
namespace {

constexpr std::uint64_t kRequestMask = (std::uint64_t{1} << kStreamBits) - 1;
constexpr std::uint64_t kOversampleStream = 0x6f7665727361ULL;  // "oversa"
constexpr std::uint64_t kQuestionStream = 0x7175657374ULL;      // "quest"
constexpr std::uint64_t kPrefixStream = 0x707265666978ULL;      // "prefix"
constexpr std::uint64_t kOrderStream = 0x6f72646572ULL;         // "order"

std::uint64_t stream_of(std::uint64_t index) { return index >> kStreamBits; }
std::uint64_t request_of(std::uint64_t index) { return index & kRequestMask; }

// SplitMix64's finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", 2014): stream 0 keeps the user's seed, so a single run's prompts are those of
// make_random_prompts; every other stream gets a seed unrelated to it.
std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t stream) {
  if (stream == 0) return seed;
  std::uint64_t z = seed ^ (stream * 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string length_note(std::string_view what, std::int64_t len, double range_ratio) {
  const LengthRange range = length_range(len, range_ratio);
  if (range.low == range.high) return std::string(what) + " " + std::to_string(len);
  return std::string(what) + " " + std::to_string(range.low) + "-" + std::to_string(range.high);
}

// random, and random-ids: the prompt as token ids. With a tokenizer, random lengths are
// tokens (token_prompts.hpp).
class RandomSource final : public PromptSource {
 public:
  RandomSource(const DatasetOptions& options, const TokenLengths& tokens)
      : options_{0, options.input_len, options.output_len, options.seed, options.range_ratio},
        ids_(options.kind == DatasetKind::random_ids), tokens_(tokens) {
    require_valid(options_);
    std::ostringstream line;
    line << dataset_kind_name(options.kind) << ": prompts made on demand, "
         << length_note("input", options.input_len, options.range_ratio)
         << (ids_ ? " token ids" : tokens.tokenizer != nullptr ? " tokens" : " words");
    if (!ids_ && tokens.tokenizer != nullptr) {
      line << " (" << tokens.tokenizer->description();
      if (tokens.template_tokens > 0) {
        line << "; the chat template's " << tokens.template_tokens << " included";
      }
      line << ")";
    }
    line << ", " << length_note("max_tokens", options.output_len, options.range_ratio);
    if (options.range_ratio > 0) line << " (range ratio " << options.range_ratio << ")";
    summary_ = line.str();
  }
  Prompt prompt(std::uint64_t index) const override {
    RandomPromptOptions stream = options_;
    stream.seed = stream_seed(options_.seed, stream_of(index));
    if (ids_) return random_ids_prompt(stream, request_of(index), tokens_.tokenizer);
    if (tokens_.tokenizer != nullptr) return token_exact_prompt(stream, request_of(index), tokens_);
    return random_prompt(stream, request_of(index));
  }
  std::optional<std::uint64_t> distinct_prompts() const override { return std::nullopt; }
  bool shares_prefixes() const override { return false; }
  const std::string& summary() const override { return summary_; }

 private:
  RandomPromptOptions options_;
  bool ids_;
  TokenLengths tokens_;
  std::string summary_;
};

// SGLang's generated-shared-prefix (see shared_prefix.hpp) on demand: the groups' prefixes are
// made once (groups x prefix_len words, whatever the run's length) and shared by every stream:
// sharing them is the workload's purpose. Questions are new for every request of every stream;
// which group a request belongs to follows one seeded shuffle of groups x questions positions.
class SharedPrefixSource final : public PromptSource {
 public:
  explicit SharedPrefixSource(const DatasetOptions& options);
  Prompt prompt(std::uint64_t index) const override;
  std::optional<std::uint64_t> distinct_prompts() const override { return std::nullopt; }
  bool shares_prefixes() const override { return true; }
  const std::string& summary() const override { return summary_; }

 private:
  DatasetOptions options_;
  std::vector<std::string> prefixes_;       // one per group
  std::vector<std::uint32_t> group_order_;  // position in a round -> group
  std::string summary_;
};

SharedPrefixSource::SharedPrefixSource(const DatasetOptions& options) : options_(options) {
  for (const auto& [flag, value] :
       {std::pair<const char*, std::int64_t>{"--prefix-groups", options.prefix_groups},
        {"--prefix-len", options.prefix_len},
        {"--questions-per-group", options.questions_per_group},
        {"--input-len", options.input_len},
        {"--output-len", options.output_len}}) {
    if (value < 1) {
      throw std::invalid_argument(std::string(flag) + " must be at least 1, got " +
                                  std::to_string(value));
    }
  }
  length_range(options.input_len, options.range_ratio);  // throws for a ratio out of range
  std::mt19937_64 words = detail::engine_for(options.seed, kPrefixStream);
  for (std::int64_t group = 0; group < options.prefix_groups; ++group) {
    std::string prefix = "group" + std::to_string(group);
    detail::append_random_words(words, options.prefix_len - 1, prefix);
    prefixes_.push_back(std::move(prefix));
  }
  const auto questions = static_cast<std::size_t>(options.questions_per_group);
  const auto round = static_cast<std::size_t>(options.prefix_groups) * questions;
  group_order_.resize(round);
  for (std::size_t position = 0; position < round; ++position) {
    group_order_[position] = static_cast<std::uint32_t>(position / questions);
  }
  std::mt19937_64 order = detail::engine_for(options.seed, kOrderStream);
  detail::shuffle_in_place(group_order_, order);
  std::ostringstream line;
  line << "shared-prefix: " << options.prefix_groups << " groups of "
       << options.questions_per_group << " questions a round, prefix " << options.prefix_len
       << " words, " << length_note("question", options.input_len, options.range_ratio)
       << " words, "
       << length_note("max_tokens", options.output_len, options.range_ratio);
  summary_ = line.str();
}

Prompt SharedPrefixSource::prompt(std::uint64_t index) const {
  const std::uint64_t request = request_of(index);
  const std::uint32_t group = group_order_[request % group_order_.size()];
  RandomPromptOptions question{0, options_.input_len, options_.output_len,
                               stream_seed(options_.seed ^ kQuestionStream, stream_of(index)),
                               options_.range_ratio};
  Prompt prompt = random_prompt(question, request);
  prompt.system_text = prefixes_[group];
  prompt.input_len += options_.prefix_len;
  prompt.prefix_group = group;
  return prompt;
}

// sharegpt and jsonl: the file's usable items, shuffled with the seed, held in memory. Stream s
// starts at item s x (requests of a stream), so the points of a sweep get items of their own
// while the file lasts; beyond it, items are drawn with replacement (vLLM's oversampling).
class FileSource final : public PromptSource {
 public:
  FileSource(std::vector<Prompt> items, std::optional<std::size_t> per_stream, std::uint64_t seed,
             std::string summary)
      : items_(std::move(items)), per_stream_(per_stream.value_or(items_.size())), seed_(seed),
        summary_(std::move(summary)) {}
  Prompt prompt(std::uint64_t index) const override {
    const std::uint64_t position = stream_of(index) * per_stream_ + request_of(index);
    if (position < items_.size()) return items_[position];
    std::mt19937_64 draw = detail::engine_for(seed_, kOversampleStream, position);
    return items_[detail::draw_below(draw, items_.size())];
  }
  std::optional<std::uint64_t> distinct_prompts() const override { return items_.size(); }
  bool shares_prefixes() const override { return false; }
  const std::string& summary() const override { return summary_; }

 private:
  std::vector<Prompt> items_;
  std::uint64_t per_stream_;
  std::uint64_t seed_;
  std::string summary_;
};

std::string repeat_note(std::optional<std::size_t> per_stream, std::size_t distinct) {
  if (!per_stream || *per_stream <= distinct) return "";
  return "; " + std::to_string(*per_stream) + " requests a point, " +
         std::to_string(*per_stream - distinct) +
         " of them repeats (sampled with replacement, as vLLM does)";
}

// The file's every usable item, once: FileSource shares them out over the streams itself.
DatasetOptions every_item(const DatasetOptions& options) {
  DatasetOptions all = options;
  all.count.reset();
  return all;
}

std::unique_ptr<PromptSource> sharegpt_source(const DatasetOptions& options) {
  ShareGptDataset loaded = load_sharegpt(every_item(options));
  const ShareGptStats& stats = loaded.stats;
  std::ostringstream line;
  line << "sharegpt " << options.path << ": " << stats.entries << " conversations, "
       << stats.usable << " usable (dropped: " << stats.malformed << " malformed, "
       << stats.too_few_turns << " under 2 turns, " << stats.no_reply
       << " without a human turn and reply, " << stats.too_short << " under "
       << kShareGptMinLen << " words, " << stats.too_long << " over "
       << sharegpt_length_limits(options) << ")";
  if (options.sharegpt_output_len) line << ", max_tokens " << *options.sharegpt_output_len;
  line << repeat_note(options.count, stats.usable);
  return std::make_unique<FileSource>(std::move(loaded.prompts), options.count, options.seed,
                                      line.str());
}

std::unique_ptr<PromptSource> jsonl_source(const DatasetOptions& options) {
  JsonlDataset loaded = load_jsonl(every_item(options));
  std::string line = "jsonl " + options.path + ": " + std::to_string(loaded.requests) +
                     " requests on " + std::to_string(loaded.lines) + " lines" +
                     repeat_note(options.count, loaded.requests);
  return std::make_unique<FileSource>(std::move(loaded.prompts), options.count, options.seed,
                                      std::move(line));
}

}  // namespace

std::unique_ptr<PromptSource> open_prompt_source(const DatasetOptions& options,
                                                 const TokenLengths& tokens) {
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
      return sharegpt_source(options);
    case DatasetKind::jsonl:
      return jsonl_source(options);
    case DatasetKind::shared_prefix:
      return std::make_unique<SharedPrefixSource>(options);
    case DatasetKind::random:
    case DatasetKind::random_ids:
      break;
  }
  return std::make_unique<RandomSource>(options, tokens);
}

}  // namespace bench::workload
