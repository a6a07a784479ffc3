#include "bench/workload/prompt_source.hpp"

#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "agent_trace_source.hpp"
#include "bench/workload/jsonl_dataset.hpp"
#include "bench/workload/prefix_share.hpp"
#include "bench/workload/random_prompts.hpp"
#include "bench/workload/sampling.hpp"
#include "bench/workload/shared_prefix.hpp"
#include "bench/workload/sharegpt.hpp"
#include "bench/workload/trace.hpp"
#include "bench/workload/trace_prompts.hpp"
#include "random_text.hpp"

namespace bench::workload {
namespace {

constexpr std::uint64_t kRequestMask = (std::uint64_t{1} << kStreamBits) - 1;
constexpr std::uint64_t kOversampleStream = 0x6f7665727361ULL;  // "oversa"

std::uint64_t stream_of(std::uint64_t index) { return index >> kStreamBits; }
std::uint64_t request_of(std::uint64_t index) { return index & kRequestMask; }

std::string length_note(std::string_view what, std::int64_t len, const LengthRange& range) {
  if (range.low == range.high) return std::string(what) + " " + std::to_string(len);
  return std::string(what) + " " + std::to_string(range.low) + "-" + std::to_string(range.high);
}

// random, and random-ids: the prompt as token ids. With a tokenizer, random lengths are
// tokens (token_prompts.hpp).
class RandomSource final : public PromptSource {
 public:
  RandomSource(const DatasetOptions& options, const TokenLengths& tokens)
      : options_{0,
                 options.input_len,
                 options.output_len,
                 options.seed,
                 options.range_ratio,
                 options.output_range_ratio,
                 options.range_rule},
        ids_(options.kind == DatasetKind::random_ids),
        tokens_(tokens) {
    require_valid(options_);
    std::ostringstream line;
    line << dataset_kind_name(options.kind) << ": prompts made on demand, "
         << length_note("input", options.input_len, input_length_range(options))
         << (ids_                          ? " token ids"
             : tokens.tokenizer != nullptr ? " tokens"
                                           : " words");
    if (!ids_ && tokens.tokenizer != nullptr) {
      line << " (" << tokens.tokenizer->description();
      if (tokens.template_tokens > 0) {
        line << "; the chat template's " << tokens.template_tokens << " included";
      }
      line << ")";
    }
    line << ", " << length_note("max_tokens", options.output_len, output_length_range(options));
    if (options.range_rule == RangeRule::below) {
      line << " (SGLang's range ratio " << options.range_ratio << ": uniform up to the length)";
    } else if (options.range_ratio > 0 || options.output_range_ratio.value_or(0) > 0) {
      line << " (range ratio " << options.range_ratio;
      if (options.output_range_ratio) line << ", output " << *options.output_range_ratio;
      line << ")";
    }
    summary_ = line.str();
  }
  Prompt prompt(std::uint64_t index) const override {
    RandomPromptOptions stream = options_;
    stream.seed = detail::stream_seed(options_.seed, stream_of(index));
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

// SGLang's generated-shared-prefix on demand (shared_prefix.hpp owns its rules): the groups'
// prefixes are shared by every stream, since sharing them is the workload's purpose.
class SharedPrefixSource final : public PromptSource {
 public:
  explicit SharedPrefixSource(const DatasetOptions& options)
      : prompts_(SharedPrefixOptions{options.prefix_groups, options.prefix_len,
                                     options.questions_per_group, options.input_len,
                                     options.output_len, options.range_ratio, options.seed}) {
    std::ostringstream line;
    line << "shared-prefix: " << options.prefix_groups << " groups of "
         << options.questions_per_group << " questions a round, prefix " << options.prefix_len
         << " words, " << length_note("question", options.input_len, input_length_range(options))
         << " words, "
         << length_note("max_tokens", options.output_len, output_length_range(options));
    summary_ = line.str();
    // In words whatever the tokenizer: the prefix and the question are words (shared_prefix.hpp).
    longest_.add(options.prefix_len + input_length_range(options).high,
                 output_length_range(options).high);
  }
  Prompt prompt(std::uint64_t index) const override {
    return prompts_.prompt(stream_of(index), request_of(index));
  }
  std::optional<std::uint64_t> distinct_prompts() const override { return std::nullopt; }
  bool shares_prefixes() const override { return true; }
  const std::string& summary() const override { return summary_; }
  std::optional<LongestRequest> longest_request() const override { return longest_; }

 private:
  SharedPrefixPrompts prompts_;
  std::string summary_;
  LongestRequest longest_;
};

// sharegpt and jsonl: the file's usable items, indexed (indexed_file.hpp), each read when its
// request is due, in the order of one seeded shuffle (unless --no-shuffle). Stream s starts at
// position s x (requests of a stream), so the points of a sweep get items of their own while
// the file lasts; beyond it, items are drawn with replacement (vLLM's oversampling), each
// position's draw seeded by the position. Memory: the index and the order, 20 bytes an item.
template <typename File>
class FileSource final : public PromptSource {
 public:
  FileSource(File file, const DatasetOptions& options, std::string summary)
      : file_(std::move(file)),
        order_(options.shuffle ? shuffled_order(file_.size(), options.seed) : in_order()),
        per_stream_(options.count.value_or(file_.size())),
        seed_(options.seed),
        summary_(std::move(summary)) {}
  Prompt prompt(std::uint64_t index) const override {
    const std::uint64_t position = stream_of(index) * per_stream_ + request_of(index);
    if (position < order_.size()) return file_.item(order_[position]);
    detail::DrawEngine draw = detail::engine_for(seed_, kOversampleStream, position);
    return file_.item(order_[detail::draw_below(draw, order_.size())]);
  }
  std::optional<std::uint64_t> distinct_prompts() const override { return order_.size(); }
  bool shares_prefixes() const override { return false; }
  const std::string& summary() const override { return summary_; }
  std::optional<LongestRequest> longest_request() const override { return file_.longest_request(); }
  DatasetImages images() const override {
    if constexpr (requires { file_.images(); }) return file_.images();
    return {};
  }

 private:
  std::vector<std::uint32_t> in_order() const {
    std::vector<std::uint32_t> order(file_.size());
    std::iota(order.begin(), order.end(), std::uint32_t{0});
    return order;
  }

  File file_;
  std::vector<std::uint32_t> order_;  // position -> item
  std::uint64_t per_stream_;
  std::uint64_t seed_;
  std::string summary_;
};

// A replayed trace (trace.hpp): request r of every stream is row r, sent at the row's offset;
// each stream's text is its own (trace_prompts.hpp).
class TraceSource final : public PromptSource {
 public:
  TraceSource(const DatasetOptions& options, const TokenLengths& tokens)
      : file_(options.path, options.trace, options.count),
        seed_(options.seed),
        tokens_(tokens),
        mooncake_(options.trace.format == TraceFormat::mooncake) {
    const TraceStats& stats = file_.stats();
    std::ostringstream line;
    line << "trace " << trace_format_name(options.trace.format) << " " << options.path << ": "
         << stats.rows << " rows read, " << stats.used << " replayed";
    if (stats.used < stats.rows) {
      line << " (left out: " << stats.other_model << " other model, " << stats.other_log_type
           << " other log type, " << stats.empty << " with 0 input or output tokens, "
           << stats.outside_window << " before the window)";
    }
    line << ", trace seconds " << stats.first_s << "-" << stats.last_s;
    if (options.trace.speed != 1.0) line << " at " << options.trace.speed << "x speed";
    line << ", lengths in " << (tokens.tokenizer != nullptr ? "tokens" : "words");
    if (mooncake_) {
      line << ", hash blocks of " << kTraceBlockTokens << ": "
           << (file_.shares_prefixes() ? "prompts share prefixes where their hash ids repeat"
                                       : "no two prompts share a first block");
    }
    summary_ = line.str();
    for (std::size_t row = 0; row < file_.size(); ++row) {
      longest_.add(file_.row(row).input_len, file_.row(row).output_len);
    }
    longest_.in_tokens = tokens.tokenizer != nullptr;
  }
  Prompt prompt(std::uint64_t index) const override {
    const std::uint64_t row = request_of(index) % file_.size();
    return trace_prompt(file_.row(row), file_.hash_ids(row), seed_, stream_of(index), row, tokens_);
  }
  std::optional<std::uint64_t> distinct_prompts() const override { return std::nullopt; }
  bool shares_prefixes() const override { return file_.shares_prefixes(); }
  const std::string& summary() const override { return summary_; }
  std::shared_ptr<const std::vector<std::int64_t>> arrival_offsets_ns() const override {
    return file_.offsets_ns();
  }
  std::optional<LongestRequest> longest_request() const override { return longest_; }

 private:
  TraceFile file_;
  std::uint64_t seed_;
  TokenLengths tokens_;
  bool mooncake_;
  std::string summary_;
  LongestRequest longest_;
};

std::string repeat_note(std::optional<std::size_t> per_stream, std::size_t distinct) {
  if (!per_stream || *per_stream <= distinct) return "";
  return "; " + std::to_string(*per_stream) + " requests a point, " +
         std::to_string(*per_stream - distinct) +
         " of them repeats (sampled with replacement, as vLLM does)";
}

// ", 12 image files (3.4 MiB), read as their requests are sent", or nothing without images.
std::string images_note(const DatasetImages& images) {
  if (!images.any()) return "";
  const bool mib = images.bytes >= (1 << 20);
  std::ostringstream note;
  note << ", " << images.files << " image file" << (images.files == 1 ? "" : "s") << " ("
       << std::fixed << std::setprecision(1)
       << static_cast<double>(images.bytes) / (mib ? 1 << 20 : 1 << 10) << (mib ? " MiB" : " KiB")
       << "), read as their requests are sent";
  return note.str();
}

std::unique_ptr<PromptSource> sharegpt_source(const DatasetOptions& options,
                                              const tokenizer::Tokenizer* tokenizer) {
  ShareGptFile file(options, tokenizer);
  const ShareGptStats& stats = file.stats();
  const std::string_view unit = length_unit(tokenizer);
  std::ostringstream line;
  line << "sharegpt " << options.path << ": " << stats.entries << " conversations, " << stats.usable
       << " usable (dropped: " << stats.malformed << " malformed, " << stats.too_few_turns
       << " under 2 turns, " << stats.no_reply << " without a human turn and reply, "
       << stats.too_short << " under " << kShareGptMinLen << " " << unit << ", " << stats.too_long
       << " over " << sharegpt_length_limits(options, unit) << ")";
  if (options.sharegpt_output_len) line << ", max_tokens " << *options.sharegpt_output_len;
  line << repeat_note(options.count, stats.usable);
  return std::make_unique<FileSource<ShareGptFile>>(std::move(file), options, line.str());
}

std::unique_ptr<PromptSource> jsonl_source(const DatasetOptions& options,
                                           const tokenizer::Tokenizer* tokenizer) {
  JsonlFile file(options, tokenizer);
  std::string line = "jsonl " + options.path + ": " + std::to_string(file.size()) +
                     " requests on " + std::to_string(file.lines()) + " lines" +
                     (tokenizer != nullptr ? ", lengths in tokens" : "") +
                     images_note(file.images()) + repeat_note(options.count, file.size());
  return std::make_unique<FileSource<JsonlFile>>(std::move(file), options, std::move(line));
}

}  // namespace

std::unique_ptr<PromptSource> open_prompt_source(const DatasetOptions& options,
                                                 const TokenLengths& tokens) {
  const bool reads_file = options.kind == DatasetKind::sharegpt ||
                          options.kind == DatasetKind::jsonl || options.kind == DatasetKind::trace;
  const std::string name(dataset_kind_name(options.kind));
  if (reads_file && options.path.empty()) {
    throw std::invalid_argument("--dataset " + name + " needs --dataset-path FILE");
  }
  if (!reads_file && !options.path.empty()) {
    throw std::invalid_argument(
        "--dataset-path is read only by --dataset sharegpt, jsonl or "
        "trace, not by --dataset " +
        name);
  }
  if (!options.prefix_shares.empty()) return prefix_share_source(options, tokens);
  switch (options.kind) {
    case DatasetKind::sharegpt: return sharegpt_source(options, tokens.tokenizer);
    case DatasetKind::jsonl: return jsonl_source(options, tokens.tokenizer);
    case DatasetKind::shared_prefix: return std::make_unique<SharedPrefixSource>(options);
    case DatasetKind::trace:
      if (options.trace.format == TraceFormat::weka) return agent_trace_source(options, tokens);
      return std::make_unique<TraceSource>(options, tokens);
    case DatasetKind::random:
    case DatasetKind::random_ids: break;
  }
  return std::make_unique<RandomSource>(options, tokens);
}

}  // namespace bench::workload
