// The text report's lines of a replayed agent trace (--trace-format weka): the prefix-cache
// ceiling beside what the server served (under "Prompt cache"), and the "Agent trace" section:
// AgentX's validity, the trees and subagents, the requests by agent and InferenceX's point.
// Worded from the figures results/agent_trace_section.hpp writes into the JSON.
#include <optional>
#include <string>

#include <fmt/format.h>

#include "bench/results/agent_trace_section.hpp"
#include "bench/results/efficiency.hpp"
#include "text_writer.hpp"

namespace bench::report::text {
namespace {

using metrics::Distribution;

std::string share_percent(std::optional<double> share) {
  return share ? fmt::format("{:.1f}%", *share * 100) : std::string("n/a");
}

std::string fixed_or_na(std::optional<double> value) {
  return value ? fmt::format("{:.2f}", *value) : std::string("n/a");
}

// "mean 12.00  min 3.00  p50 11.00  p99 20.00", or n/a when it holds no value.
std::string stats_line(const Distribution& d) {
  if (d.count == 0) return "n/a";
  return fmt::format("mean {}  min {}  p50 {}  p99 {}", fixed2(d.mean), fixed2(d.min),
                     fixed2(d.median), fixed2(d.p99));
}

void write_trees(Writer& w, const metrics::RunSummary& s) {
  const metrics::AgentTreeSummary& agents = *s.agent_trees;
  w.field("Trees completed",
          fmt::format("{} (every request of every agent ended well)", agents.tree_turns.count));
  w.field("  requests per tree", stats_line(agents.tree_turns));
  if (s.multi_turn) {
    w.field("  duration (ms)", stats_line(s.multi_turn->session_duration_ms));
  }
  w.field("  output per tree",
          fmt::format("{}  tok/s (output)", stats_line(agents.tree_output_throughput)));
  w.field("  input per tree",
          fmt::format("{}  tok/s (input)", stats_line(agents.tree_input_throughput)));
  w.field("Subagents (of completed trees)", fmt::format("{}", agents.subagent_duration_ms.count));
  w.field("  duration (ms)", stats_line(agents.subagent_duration_ms));
  w.field("  requests per subagent", stats_line(agents.subagent_turns));
  w.field("  output per subagent",
          fmt::format("{}  tok/s (output)", stats_line(agents.subagent_output_throughput)));
  w.text(
      "A tree or subagent runs from its first send to its last end; its rates are its tokens "
      "over that time.");
}

void write_role(Writer& w, std::string_view label, const metrics::AgentRoleFigures& role) {
  w.field(label, fmt::format("{} sent, {} completed, {} output tokens; TTFT (ms) p50 {}  p99 {}",
                             role.requests, role.completed, role.output_tokens,
                             stat2(role.ttft_ms, &Distribution::median),
                             stat2(role.ttft_ms, &Distribution::p99)));
}

// InferenceX's headline point, with what its total is made of beside it.
void write_inferencex(Writer& w, const metrics::RunSummary& s, const results::RunContext& c) {
  const results::Efficiency e = results::efficiency(s, c);
  w.field("InferenceX point (per GPU)",
          c.accelerators.gpus
              ? fmt::format("{} tok/s (total = input + output) per GPU, cached input counted",
                            fixed_or_na(e.total_per_gpu))
              : std::string("n/a (give --gpus N: bench does not guess the server's GPUs)"));
  w.field("  at p90 interactivity",
          fmt::format("{} tok/s (output) per user: 1 / p90 TPOT (per token, AIPerf's ITL)",
                      fixed_or_na(e.p90_interactivity)));
  if (!c.accelerators.gpus) return;
  w.field("  beside it",
          fmt::format("{} tok/s (output) per GPU, {} tok/s (input, computed) per GPU",
                      fixed_or_na(e.output_per_gpu), fixed_or_na(e.computed_input_per_gpu)));
}

}  // namespace

void write_cache_ceiling(Writer& w, const metrics::AgentTreeSummary& agents) {
  const metrics::CacheCeiling& c = agents.cache_ceiling;
  w.field("Prompt cache ceiling",
          fmt::format("{} ({} of {} prompt tokens in blocks sent before: the trace's most)",
                      share_percent(c.ceiling_share()), c.ceiling_tokens, c.prompt_tokens));
  if (c.disclosing_requests == 0) {
    w.field("  served by the server", "n/a (the server did not disclose cached tokens)");
    return;
  }
  w.field("  served by the server",
          fmt::format("{} ({} tokens, usage of {} of {} requests); gap {:.1f} points, {} tokens",
                      share_percent(c.cached_share()), c.cached_tokens, c.disclosing_requests,
                      c.requests, c.gap_share().value_or(0) * 100, c.gap_tokens().value_or(0)));
}

void write_agent_trace(Writer& w, const metrics::RunSummary& s, const results::RunContext& c) {
  w.rule("Agent trace", '-');
  const results::AgentTraceValidity validity = results::agent_trace_validity(s);
  w.field("Valid (AgentX's rule)",
          fmt::format("{}: {}", validity.valid ? "yes" : "NO", validity.reason));
  write_trees(w, s);
  write_role(w, "Requests of root agents", s.agent_trees->root);
  write_role(w, "Requests of subagents", s.agent_trees->subagents);
  write_inferencex(w, s, c);
}

}  // namespace bench::report::text
