// A replayed agent trace's figures (agent_trees.hpp): the cache ceiling, trees and subagents
// folded as they end, and the requests by agent.
#include "bench/metrics/agent_trees.hpp"

#include <algorithm>
#include <utility>

#include "bench/util/clock.hpp"

namespace bench::metrics {

namespace {

std::optional<double> share(std::int64_t part, std::int64_t whole) {
  if (whole <= 0) return std::nullopt;
  return static_cast<double>(part) / static_cast<double>(whole);
}

// Tokens over a span, tok/s; nullopt for a span of no time.
std::optional<double> per_second(std::int64_t tokens, std::int64_t span_ns) {
  if (span_ns <= 0) return std::nullopt;
  return static_cast<double>(tokens) / ns_to_s(span_ns);
}

}  // namespace

void CacheCeiling::add(const RequestRecord& record) {
  if (!record.ok() || record.warmup || record.cache_ceiling_tokens < 0 ||
      record.prompt_tokens < 0) {
    return;
  }
  ++requests;
  prompt_tokens += record.prompt_tokens;
  ceiling_tokens += record.cache_ceiling_tokens;
  if (record.cached_prompt_tokens < 0) return;
  ++disclosing_requests;
  disclosed_prompt_tokens += record.prompt_tokens;
  disclosed_ceiling_tokens += record.cache_ceiling_tokens;
  cached_tokens += record.cached_prompt_tokens;
}

CacheCeiling& CacheCeiling::operator+=(const CacheCeiling& other) {
  requests += other.requests;
  prompt_tokens += other.prompt_tokens;
  ceiling_tokens += other.ceiling_tokens;
  disclosing_requests += other.disclosing_requests;
  disclosed_prompt_tokens += other.disclosed_prompt_tokens;
  disclosed_ceiling_tokens += other.disclosed_ceiling_tokens;
  cached_tokens += other.cached_tokens;
  return *this;
}

std::optional<double> CacheCeiling::ceiling_share() const {
  return share(ceiling_tokens, prompt_tokens);
}

std::optional<double> CacheCeiling::cached_share() const {
  if (disclosing_requests == 0) return std::nullopt;
  return share(cached_tokens, disclosed_prompt_tokens);
}

std::optional<double> CacheCeiling::gap_share() const {
  const std::optional<double> served = cached_share();
  const std::optional<double> ceiling = share(disclosed_ceiling_tokens, disclosed_prompt_tokens);
  if (!served || !ceiling) return std::nullopt;
  return *ceiling - *served;
}

std::optional<std::int64_t> CacheCeiling::gap_tokens() const {
  if (disclosing_requests == 0) return std::nullopt;
  return disclosed_ceiling_tokens - cached_tokens;
}

void AgentTreeAccumulator::OpenAgent::add(const RequestRecord& record) {
  first_send_ns = first_send_ns < 0 ? record.start_ns : std::min(first_send_ns, record.start_ns);
  last_end_ns = std::max(last_end_ns, record.end_ns);
  if (!record.ok()) return;
  ++turns;
  output_known = output_known && record.completion_tokens >= 0;
  input_known = input_known && record.prompt_tokens >= 0;
  output_tokens += std::max<std::int64_t>(0, record.completion_tokens);
  input_tokens += std::max<std::int64_t>(0, record.prompt_tokens);
}

AgentTreeAccumulator::AgentTreeAccumulator(std::shared_ptr<SampleBudget> budget)
    : budget_(std::move(budget)),
      tree_turns_(distribution()),
      tree_output_(distribution()),
      tree_input_(distribution()),
      subagent_ms_(distribution()),
      subagent_turns_(distribution()),
      subagent_output_(distribution()),
      root_{{}, distribution()},
      subagents_{{}, distribution()} {}

LatencyDistribution AgentTreeAccumulator::distribution() const {
  return LatencyDistribution(LatencyDistribution::kDefaultExactBudget, budget_);
}

void AgentTreeAccumulator::add(const RequestRecord& record) {
  if (record.warmup || record.session < 0 || record.branch < 0) return;
  cache_ceiling_.add(record);
  Role& role = record.branch == 0 ? root_ : subagents_;
  ++role.counts.requests;
  if (record.ok()) {
    ++role.counts.completed;
    role.counts.output_tokens += std::max<std::int64_t>(0, record.completion_tokens);
    if (record.first_token_ns >= 0)
      role.ttft_ms.add(ns_to_ms(record.first_token_ns - record.start_ns));
  }
  std::vector<OpenAgent>& agents = open_[record.session];
  const auto branch = static_cast<std::size_t>(record.branch);
  if (agents.size() <= branch) agents.resize(branch + 1);
  agents[branch].add(record);
}

void AgentTreeAccumulator::end_tree(std::int64_t session, bool completed) {
  const auto found = open_.find(session);
  if (found == open_.end()) return;
  if (completed) fold(found->second);
  open_.erase(found);
}

// A completed tree's figures: the whole tree's, then each subagent's.
void AgentTreeAccumulator::fold(const std::vector<OpenAgent>& agents) {
  OpenAgent tree;
  for (const OpenAgent& agent : agents) {
    if (agent.first_send_ns < 0) continue;  // an agent that sent nothing
    tree.first_send_ns = tree.first_send_ns < 0 ? agent.first_send_ns
                                                : std::min(tree.first_send_ns, agent.first_send_ns);
    tree.last_end_ns = std::max(tree.last_end_ns, agent.last_end_ns);
    tree.turns += agent.turns;
    tree.output_tokens += agent.output_tokens;
    tree.input_tokens += agent.input_tokens;
    tree.output_known = tree.output_known && agent.output_known;
    tree.input_known = tree.input_known && agent.input_known;
  }
  if (tree.first_send_ns < 0) return;
  const std::int64_t span_ns = tree.last_end_ns - tree.first_send_ns;
  tree_turns_.add(static_cast<double>(tree.turns));
  const std::optional<double> output = per_second(tree.output_tokens, span_ns);
  if (tree.output_known && output) tree_output_.add(*output);
  const std::optional<double> input = per_second(tree.input_tokens, span_ns);
  if (tree.input_known && input) tree_input_.add(*input);
  for (std::size_t k = 1; k < agents.size(); ++k) {
    const OpenAgent& child = agents[k];
    if (child.first_send_ns < 0) continue;
    const std::int64_t child_ns = child.last_end_ns - child.first_send_ns;
    subagent_ms_.add(ns_to_ms(child_ns));
    subagent_turns_.add(static_cast<double>(child.turns));
    const std::optional<double> child_output = per_second(child.output_tokens, child_ns);
    if (child.output_known && child_output) subagent_output_.add(*child_output);
  }
}

void AgentTreeAccumulator::merge(AgentTreeAccumulator&& other) {
  cache_ceiling_ += other.cache_ceiling_;
  // Trees are dealt whole to threads, so no tree is open in two.
  for (auto& [session, agents] : other.open_) open_.emplace(session, std::move(agents));
  tree_turns_.merge(other.tree_turns_);
  tree_output_.merge(other.tree_output_);
  tree_input_.merge(other.tree_input_);
  subagent_ms_.merge(other.subagent_ms_);
  subagent_turns_.merge(other.subagent_turns_);
  subagent_output_.merge(other.subagent_output_);
  root_.merge(other.root_);
  subagents_.merge(other.subagents_);
}

void AgentTreeAccumulator::Role::merge(const Role& other) {
  counts.requests += other.counts.requests;
  counts.completed += other.counts.completed;
  counts.output_tokens += other.counts.output_tokens;
  ttft_ms.merge(other.ttft_ms);
}

AgentTreeSummary AgentTreeAccumulator::summarize() {
  AgentTreeSummary out;
  out.cache_ceiling = cache_ceiling_;
  out.tree_turns = tree_turns_.summarize();
  out.tree_output_throughput = tree_output_.summarize();
  out.tree_input_throughput = tree_input_.summarize();
  out.subagent_duration_ms = subagent_ms_.summarize();
  out.subagent_turns = subagent_turns_.summarize();
  out.subagent_output_throughput = subagent_output_.summarize();
  out.root = root_.counts;
  out.root.ttft_ms = root_.ttft_ms.summarize();
  out.subagents = subagents_.counts;
  out.subagents.ttft_ms = subagents_.ttft_ms.summarize();
  return out;
}

}  // namespace bench::metrics
