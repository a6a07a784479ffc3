// One line each for the image split, the energy figures' absence and the prompt cache
// (bench/report/figure_words.hpp).
#include "bench/report/figure_words.hpp"

#include <optional>

#include <fmt/format.h>

#include "bench/results/format.hpp"

namespace bench::report {
namespace {

// Why the cached share may be high on purpose, or "" when the workload was meant to send fresh
// prompts.
std::string intended_sharing(const results::RunContext& context) {
  switch (results::sharing_intent(context)) {
    case results::SharingIntent::reused_prompts:
      return "prompts reused on purpose (--reuse-prompts): cache-warm";
    case results::SharingIntent::trace_prefixes:
      return "trace replay whose prompts share prefixes where its hash ids repeat: sharing is "
             "the trace's";
    case results::SharingIntent::prefix_share:
      return fmt::format(
          "--prefix-share asked {:.1f}% of each prompt shared: sharing is its purpose",
          *context.prefix_share * 100);
    case results::SharingIntent::shared_prefix:
      return "shared-prefix workload: sharing is its purpose";
    case results::SharingIntent::resent_history:
      return "multi-turn sessions: each turn resends its history, which the cache serves";
    case results::SharingIntent::none: break;
  }
  return "";
}

std::string share_text(const metrics::InputTokenSplit& split) {
  const std::optional<double> share = results::cached_input_share(split);
  return share ? fmt::format("{:.1f}% cached", *share * 100) : std::string("n/a cached");
}

}  // namespace

std::string image_input_split_line(const results::ImageInputSplit& split) {
  using results::format_number;
  const std::string input =
      split.input ? fmt::format("{} tokens a request (usage)", format_number(*split.input))
                  : std::string("unknown (no usage from the server)");
  const std::string text = split.text
                               ? fmt::format("text {} (tokenizer)", format_number(*split.text))
                               : std::string("text unknown (needs --tokenizer)");
  const std::string images = split.images ? fmt::format("images ~{} by difference (estimate)",
                                                        format_number(*split.images))
                                          : std::string("images unknown");
  return fmt::format("{}, of which {}, {}", input, text, images);
}

std::string energy_unknown_reason(const results::RunContext& c) {
  if (!c.server_metrics) {
    return "no GPU energy counter was scraped: --server-metrics on a target with DCGM's "
           "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION";
  }
  if (!c.server_metrics->delta) return "the server's metrics could not be scraped";
  if (!c.server_metrics->delta->gpu_energy_joules) {
    return "the scraped target exposes no GPU energy counter (DCGM's "
           "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION, AMD's gpu_energy_consumed)";
  }
  if (c.server_metrics->warmup_requests > 0) {
    return "warm-up requests ran inside the scraped window, so its energy is not only the "
           "measured tokens'";
  }
  return "";
}

std::string prompt_cache_note(const metrics::RunSummary& summary,
                              const results::RunContext& context) {
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

std::string not_streamed_line(std::int64_t not_streamed, std::int64_t completed) {
  if (not_streamed <= 0) return "";
  if (not_streamed >= completed) {
    return fmt::format(
        "No request was streamed (--no-stream): TTFT, ITL, ICL and TPOT do not exist; E2E is "
        "each whole answer's wait ({} requests).",
        not_streamed);
  }
  return fmt::format(
      "Not streamed: {} of {} completed requests (--no-stream): TTFT, ITL, ICL and TPOT are the "
      "{} streamed ones'; E2E is all of them.",
      not_streamed, completed, completed - not_streamed);
}

}  // namespace bench::report
