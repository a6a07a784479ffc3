// A replayed agent trace's section of the results (agent_trace_section.hpp).
#include "bench/results/agent_trace_section.hpp"

#include <initializer_list>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "bench/metrics/error_class.hpp"
#include "bench/results/efficiency.hpp"
#include "bench/results/format.hpp"
#include "bench/results/latency_figures.hpp"
#include "run_figures.hpp"

namespace bench::results {
namespace {

using metrics::Distribution;
using nlohmann::json;

// AgentX's limit on context overflows, in percent of responses.
constexpr std::int64_t kMaxOverflowPercent = 1;

// {mean,min,median,p90,p99,max}_{name}: null (never 0) when `d` holds no value.
void put_stats(json& out, std::string_view name, const Distribution& d) {
  const std::pair<std::string_view, double Distribution::*> stats[] = {
      {"mean", &Distribution::mean}, {"min", &Distribution::min}, {"median", &Distribution::median},
      {"p90", &Distribution::p90},   {"p99", &Distribution::p99}, {"max", &Distribution::max}};
  for (const auto& [stat_name, field] : stats) {
    out[fmt::format("{}_{}", stat_name, name)] = stat(d, field);
  }
}

json optional_count(std::optional<std::int64_t> value) { return value ? json(*value) : json(); }

json cache_ceiling_json(const metrics::CacheCeiling& c) {
  return {{key::ceiling_requests, c.requests},
          {key::ceiling_prompt_tokens, c.prompt_tokens},
          {key::ceiling_tokens, c.ceiling_tokens},
          {key::ceiling_share, known_or_null(c.ceiling_share())},
          {key::disclosing_requests, c.disclosing_requests},
          {key::cached_tokens, c.disclosing_requests > 0 ? json(c.cached_tokens) : json()},
          {key::cached_share, known_or_null(c.cached_share())},
          {key::gap_share, known_or_null(c.gap_share())},
          {key::gap_tokens, optional_count(c.gap_tokens())}};
}

json role_json(const metrics::AgentRoleFigures& role) {
  json out = {{key::role_requests, role.requests},
              {key::role_completed, role.completed},
              {key::role_output_tokens, role.output_tokens}};
  out[distribution_key("median", "ttft")] = stat(role.ttft_ms, &Distribution::median);
  out[distribution_key("p99", "ttft")] = stat(role.ttft_ms, &Distribution::p99);
  return out;
}

}  // namespace

AgentTraceValidity agent_trace_validity(const metrics::RunSummary& s) {
  AgentTraceValidity out;
  const auto found = s.errors.find(metrics::ErrorClass::context_overflow);
  out.context_overflows = found != s.errors.end() ? found->second.count : 0;
  out.responses = s.completed + s.failed;
  if (out.responses == 0) {
    out.reason = "no measured request ended: nothing for AgentX's rule to judge";
    return out;
  }
  out.valid = out.context_overflows * 100 <= out.responses * kMaxOverflowPercent;
  out.reason = fmt::format(
      "{} context overflow{} in {} responses ({:.2f}%): {} AgentX's limit of {}%",
      out.context_overflows, out.context_overflows == 1 ? "" : "s", out.responses,
      100.0 * static_cast<double>(out.context_overflows) / static_cast<double>(out.responses),
      out.valid ? "within" : "over", kMaxOverflowPercent);
  return out;
}

json agent_trace_json(const metrics::RunSummary& s, const RunContext& c) {
  const metrics::AgentTreeSummary& agents = *s.agent_trees;
  const AgentTraceValidity validity = agent_trace_validity(s);
  json trees = {{key::agent_count, agents.tree_turns.count}};
  put_stats(trees, key::agent_turns, agents.tree_turns);
  put_stats(trees, key::output_throughput, agents.tree_output_throughput);
  put_stats(trees, key::input_throughput, agents.tree_input_throughput);
  json subagents = {{key::agent_count, agents.subagent_duration_ms.count}};
  put_stats(subagents, key::agent_duration_ms, agents.subagent_duration_ms);
  put_stats(subagents, key::agent_turns, agents.subagent_turns);
  put_stats(subagents, key::output_throughput, agents.subagent_output_throughput);
  const Efficiency e = efficiency(s, c);
  return {{key::agent_valid, validity.valid},
          {key::agent_validity, validity.reason},
          {key::context_overflows, validity.context_overflows},
          {key::responses, validity.responses},
          {key::cache_ceiling, cache_ceiling_json(agents.cache_ceiling)},
          {key::trees, std::move(trees)},
          {key::subagents, std::move(subagents)},
          {key::root_requests, role_json(agents.root)},
          {key::subagent_requests, role_json(agents.subagents)},
          {key::p90_interactivity, known_or_null(e.p90_interactivity)},
          {key::computed_input_throughput_per_gpu, known_or_null(e.computed_input_per_gpu)}};
}

json agent_trace_definitions() {
  return {
      {"agent_trace",
       "a replayed agent trace (--trace-format weka): each session tree (records' session) a "
       "lane's replay of one trace, each agent a branch (0 the root, k the k-th subagent), each "
       "request a turn of its agent. Only in such runs."},
      {"valid",
       "AgentX's rule: true while context_overflows <= 1% of responses (measured requests that "
       "ended: completed + failed); validity says the counts."},
      {"context_overflows",
       "measured requests refused with an HTTP 4xx whose body says the prompt did not fit the "
       "model's context (errors.context_overflow; vLLM's 'maximum context length', SGLang's "
       "'longer than the model's context length', OpenAI's context_length_exceeded, llama.cpp's "
       "'exceeds the available context size'). A failed root request ends its tree."},
      {"cache_ceiling",
       "over the measured completed requests with a ceiling and a known prompt_tokens: "
       "ceiling_tokens, the prompt tokens each request's blocks share with what was sent before "
       "(what a server caching whole blocks without limit could serve); cached_tokens, the "
       "server's own count (usage's cached_tokens) over the disclosing_requests; ceiling_share = "
       "ceiling / prompt tokens, cached_share = cached / their prompt tokens, gap_share the "
       "ceiling's share less the server's over the disclosing requests (0..1), gap_tokens their "
       "ceiling less cached. A BPE merge across block texts or a chat template that rewrites "
       "past turns puts a real server under the ceiling."},
      {"trees",
       "the completed session trees (every request of every agent ended well): count, and per "
       "tree its successful requests (turns), its output and its input tokens over its duration "
       "(first send -> last end, multi_turn's session_duration_ms), tok/s of each kind."},
      {"subagents",
       "the subagents of completed trees, each from its first send to its last end: count, "
       "duration_ms, turns and output tok/s (its completion tokens over its duration)."},
      {"root_requests",
       "the measured requests of root agents (subagent_requests: of subagents): requests sent, "
       "completed, their output tokens and their TTFT's median and p99, ms."},
      {"p90_interactivity",
       "InferenceX's interactivity: 1 / p90 TPOT, output tok/s per user. TPOT is AIPerf's "
       "per-request inter_token_latency ((E2E - TTFT) / (tokens - 1)), the ITL InferenceX takes "
       "the p90 of: per token, averaged over each request's decode, not a chunk gap. InferenceX "
       "plots total_throughput_per_gpu against it; output_throughput_per_gpu and "
       "computed_input_throughput_per_gpu say what the total is made of."},
      {"computed_input_throughput_per_gpu",
       "computed_input_throughput / --gpus: the prompt tokens the server prefilled, per GPU; "
       "null without --gpus or unless every completed request disclosed its cached tokens. An "
       "agent trace's input is mostly cached: total_throughput_per_gpu counts the cached tokens "
       "too."},
  };
}

}  // namespace bench::results
