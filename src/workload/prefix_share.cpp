#include "bench/workload/prefix_share.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace bench::workload {

std::int64_t shared_prefix_len(double share, std::int64_t input_len) {
  return std::llround(share * static_cast<double>(input_len));
}

namespace {

// Salts the system prompts' seed, so no system prompt is the text of a request of its stream.
constexpr std::uint64_t kPrefixSalt = 0x7072656669785f73ULL;  // "prefix_s"

// One share's prompts: the requests' own text, (1 - S) x input_len long, and the source of its
// system prompts (null for a share of 0).
struct ShareSources {
  std::int64_t prefix_len = 0;
  std::unique_ptr<PromptSource> own;
  std::unique_ptr<PromptSource> prefixes;
};

class PrefixShareSource final : public PromptSource {
 public:
  PrefixShareSource(const DatasetOptions& options, const TokenLengths& tokens)
      : shares_(options.prefix_shares) {
    DatasetOptions base = options;
    base.prefix_shares.clear();
    for (const double share : shares_) {
      ShareSources sources;
      sources.prefix_len = shared_prefix_len(share, options.input_len);
      DatasetOptions own = base;
      own.input_len = std::max<std::int64_t>(1, options.input_len - sources.prefix_len);
      sources.own = open_prompt_source(own, tokens);
      if (sources.prefix_len > 0) {
        DatasetOptions prefix = base;
        prefix.input_len = sources.prefix_len;
        prefix.range_ratio = 0;  // every request of the point sends the same system prompt
        prefix.seed = options.seed ^ kPrefixSalt;
        // The template's tokens are taken off the request's own text, once.
        sources.prefixes = open_prompt_source(prefix, TokenLengths{tokens.tokenizer, 0});
      }
      by_share_.push_back(std::move(sources));
    }
    summary_ = describe(base, tokens);
  }

  Prompt prompt(std::uint64_t index) const override {
    // The run's points take streams p + r x points (p the point, r the repeat), one share a
    // point, so stream s is point s mod shares; a single share serves every stream (a
    // concurrency or rate sweep's points, a search's probes).
    const std::uint64_t stream = index >> kStreamBits;
    const ShareSources& sources = by_share_[static_cast<std::size_t>(stream % by_share_.size())];
    Prompt prompt = sources.own->prompt(index);
    if (sources.prefixes == nullptr) return prompt;
    const std::shared_ptr<const Prompt> prefix = system_prompt(sources, stream);
    prompt.system_text = prefix->text;
    prompt.system_len = prefix->input_len;
    prompt.input_len += prefix->input_len;
    if (prompt.client_tokens >= 0) {
      prompt.client_tokens =
          prefix->client_tokens >= 0 ? prompt.client_tokens + prefix->client_tokens : -1;
    }
    return prompt;
  }
  std::optional<std::uint64_t> distinct_prompts() const override { return std::nullopt; }
  bool shares_prefixes() const override {
    return std::any_of(shares_.begin(), shares_.end(), [](double share) { return share > 0; });
  }
  const std::string& summary() const override { return summary_; }

 private:
  // The point's system prompt, made once a stream (tokenizing one to an exact length is costly)
  // and kept while the source lives: a run has a few streams, one a point and repeat.
  std::shared_ptr<const Prompt> system_prompt(const ShareSources& sources,
                                              std::uint64_t stream) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::shared_ptr<const Prompt>& made = made_[stream];
    if (made == nullptr) {
      made = std::make_shared<const Prompt>(sources.prefixes->prompt(prompt_index(stream, 0)));
    }
    return made;
  }

  // The dataset's own line (at the whole --input-len), then the system prompts' lengths.
  std::string describe(const DatasetOptions& base, const TokenLengths& tokens) const {
    std::ostringstream lengths, shares;
    for (std::size_t k = 0; k < shares_.size(); ++k) {
      lengths << (k == 0 ? "" : ", ") << by_share_[k].prefix_len;
      shares << (k == 0 ? "" : ",") << shares_[k];
    }
    return open_prompt_source(base, tokens)->summary() + "; each point's requests share a " +
           "system prompt of " + lengths.str() +
           (tokens.tokenizer != nullptr ? " tokens" : " words") + " (--prefix-share " +
           shares.str() + " of --input-len " + std::to_string(base.input_len) +
           "), the rest of each prompt is its own";
  }

  std::vector<double> shares_;
  std::vector<ShareSources> by_share_;
  mutable std::mutex mutex_;
  mutable std::map<std::uint64_t, std::shared_ptr<const Prompt>> made_;
  std::string summary_;
};

}  // namespace

std::unique_ptr<PromptSource> prefix_share_source(const DatasetOptions& options,
                                                  const TokenLengths& tokens) {
  // Its system prompt would stand in for another dataset's own (shared-prefix's groups, a jsonl
  // row's messages): the CLI refuses the pair; this keeps the library from mixing them.
  if (options.kind != DatasetKind::random) {
    throw std::invalid_argument("--prefix-share: only with --dataset random");
  }
  return std::make_unique<PrefixShareSource>(options, tokens);
}

}  // namespace bench::workload
