// The server's prefix cache as the results hold it: the cached share of the input tokens whose
// split the server disclosed (usage.prompt_tokens_details.cached_tokens), whether the workload
// meant to share prefixes, and the warning written into the results when that share flatters a
// workload that was not (vLLM's automatic prefix caching and SGLang's radix cache are on by
// default). The reports' note on it is report/figure_words.cpp's.
#include <string>

#include <fmt/format.h>

#include "bench/results/writer.hpp"

namespace bench::results {

// A sharing workload's reason, in the order the report names it: reuse, a trace's repeats, the
// share asked, a shared-prefix dataset, sessions resending their history.
SharingIntent sharing_intent(const RunContext& context) {
  if (context.prompts_reused) return SharingIntent::reused_prompts;
  if (context.prompts_share_prefixes && context.prompts_from_trace) {
    return SharingIntent::trace_prefixes;
  }
  if (context.prefix_share.value_or(0) > 0) return SharingIntent::prefix_share;
  if (context.prompts_share_prefixes) return SharingIntent::shared_prefix;
  if (context.prompts_resend_history) return SharingIntent::resent_history;
  return SharingIntent::none;
}

std::optional<double> cached_input_share(const metrics::InputTokenSplit& split) {
  const std::int64_t disclosed = split.computed_tokens + split.cached_tokens;
  if (split.disclosing_requests == 0 || disclosed <= 0) return std::nullopt;
  return static_cast<double>(split.cached_tokens) / static_cast<double>(disclosed);
}

namespace {

// --prefix-share's check of what the server's cache did (SGLang's controlled cache-hit benchmark
// validates its hits too, sgl-project/sglang#37359). The cache serves whole blocks (vLLM's 16
// tokens) and the chat template's tokens count in the input, so the share served sits a little
// under the share asked; only a gap beyond that says the cache did not hold the prefix.
std::optional<std::string> prefix_share_shortfall(double served, double asked) {
  if (asked - served <= 0.05 + 0.1 * asked) return std::nullopt;
  return fmt::format(
      "the server's prefix cache served {:.1f}% of input tokens where --prefix-share asked "
      "{:.1f}%: its cache is off, too small or evicted the shared prompt (vLLM: "
      "--enable-prefix-caching); these figures are not those of a {:.1f}% hit rate",
      served * 100, asked * 100, asked * 100);
}

}  // namespace

std::optional<std::string> prompt_cache_warning(const metrics::RunSummary& summary,
                                                const RunContext& context) {
  const std::optional<double> share = cached_input_share(summary.input_split);
  if (share && context.prefix_share.value_or(0) > 0) {
    return prefix_share_shortfall(*share, *context.prefix_share);
  }
  if (!share || *share <= kCachedShareWarning || sharing_intent(context) != SharingIntent::none) {
    return std::nullopt;
  }
  return fmt::format(
      "{:.1f}% of input tokens were served from the server's prefix cache, on a workload not "
      "meant to share prefixes: input tok/s and TTFT measure the cache, not prefill",
      *share * 100);
}

}  // namespace bench::results
