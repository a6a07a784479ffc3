// What the reports say about the server's prefix cache: whether the server disclosed how many
// prompt tokens its cache served (usage.prompt_tokens_details.cached_tokens), the cached share,
// and the warning when that share flatters a workload that was not meant to share prefixes
// (vLLM's automatic prefix caching and SGLang's radix cache are on by default).
#include <string>

#include <fmt/format.h>

#include "bench/results/writer.hpp"

namespace bench::results {
namespace {

// Why the share may be high on purpose, or "" when the workload was meant to send fresh prompts.
std::string intended_sharing(const RunContext& context) {
  if (context.prompts_reused) return "prompts reused on purpose (--reuse-prompts): cache-warm";
  if (context.prompts_share_prefixes && context.prompts_from_trace) {
    return "trace replay whose prompts share prefixes where its hash ids repeat: sharing is "
           "the trace's";
  }
  if (context.prefix_share.value_or(0) > 0) {
    return fmt::format("--prefix-share asked {:.1f}% of each prompt shared: sharing is its purpose",
                       *context.prefix_share * 100);
  }
  if (context.prompts_share_prefixes) return "shared-prefix workload: sharing is its purpose";
  if (context.prompts_resend_history) {
    return "multi-turn sessions: each turn resends its history, which the cache serves";
  }
  return "";
}

std::string share_text(const metrics::InputTokenSplit& split) {
  const std::optional<double> share = cached_input_share(split);
  return share ? fmt::format("{:.1f}% cached", *share * 100) : std::string("n/a cached");
}

}  // namespace

std::optional<double> cached_input_share(const metrics::InputTokenSplit& split) {
  const std::int64_t disclosed = split.computed_tokens + split.cached_tokens;
  if (split.disclosing_requests == 0 || disclosed <= 0) return std::nullopt;
  return static_cast<double>(split.cached_tokens) / static_cast<double>(disclosed);
}

std::string prompt_cache_note(const metrics::RunSummary& summary, const RunContext& context) {
  const metrics::InputTokenSplit& split = summary.input_split;
  std::string note;
  switch (split.disclosure()) {
    case metrics::CacheDisclosure::all:
      note = fmt::format("server disclosed cached tokens on all requests: {}", share_text(split));
      break;
    case metrics::CacheDisclosure::some:
      note = fmt::format("server disclosed cached tokens on {} of {} requests: {} (of theirs)",
                         split.disclosing_requests, split.requests, share_text(split));
      break;
    case metrics::CacheDisclosure::none:
      note = split.requests == 0
                 ? std::string("no completed request with a prompt token count to read it from")
                 : std::string(
                       "server did not disclose cached prompt tokens (vLLM needs "
                       "--enable-prompt-tokens-details)");
      break;
  }
  const std::string intended = intended_sharing(context);
  return intended.empty() ? note : fmt::format("{}; {}", note, intended);
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
  if (!share || *share <= kCachedShareWarning || !intended_sharing(context).empty()) {
    return std::nullopt;
  }
  return fmt::format(
      "{:.1f}% of input tokens were served from the server's prefix cache, on a workload not "
      "meant to share prefixes: input tok/s and TTFT measure the cache, not prefill",
      *share * 100);
}

}  // namespace bench::results
