#include "bench/app/point/trace_tree_scheduler.hpp"

#include <algorithm>
#include <utility>

#include "bench/util/clock.hpp"
#include "bench/util/splitmix64.hpp"

namespace bench::app {

TraceTreeScheduler::TraceTreeScheduler(SessionPlan plan)
    : plan_(std::move(plan)), trees_(*plan_.trees), next_tree_(plan_.first) {
  plan_.open_at_once = std::max<std::size_t>(1, plan_.open_at_once);
  plan_.stride = std::max<std::uint64_t>(1, plan_.stride);
  slots_.resize(plan_.open_at_once);
  for (const workload::AgentTrace& trace : *trees_.traces) {
    std::vector<std::vector<std::vector<workload::TurnStart>>> agents;
    agents.push_back(workload::agent_turns(trace.root, trace.block_size));
    for (const workload::SubAgent& child : trace.children) {
      agents.push_back(workload::agent_turns(child.script, trace.block_size));
    }
    turns_.push_back(std::move(agents));
  }
}

void TraceTreeScheduler::open_all(std::int64_t at_ns) {
  started_ = true;
  for (std::size_t slot = 0; slot < slots_.size(); ++slot) open_next(slot, at_ns);
}

void TraceTreeScheduler::open_next(std::size_t slot, std::int64_t at_ns) {
  slots_[slot].reset();
  if (next_tree_ >= plan_.end || trees_.traces->empty()) return;
  Tree tree;
  tree.index = next_tree_;
  next_tree_ += plan_.stride;
  tree.trace_index = static_cast<std::size_t>(tree.index % trees_.traces->size());
  tree.trace = &(*trees_.traces)[tree.trace_index];
  tree.agents.resize(1 + tree.trace->children.size());
  if (trees_.start_at_random) start_at_random(tree);
  slots_[slot] = std::move(tree);
  ready_.emplace(at_ns, slot, 0);
}

// The replay's start: root request r drawn from (seed, tree), the one before it its warm-up;
// subagents spawned before r are not part of this replay (nor do their joins wait for them).
void TraceTreeScheduler::start_at_random(Tree& tree) const {
  const std::size_t requests = tree.trace->root.requests.size();
  const std::size_t start = static_cast<std::size_t>(
      util::splitmix64_mix(plan_.seed ^ util::splitmix64(tree.index + 0x7472656573ULL)) % requests);
  if (start == 0) return;
  tree.agents[0].next = start - 1;
  tree.agents[0].first_measured = start;
  for (std::size_t k = 0; k < tree.trace->children.size(); ++k) {
    if (tree.trace->children[k].parent >= start) continue;
    tree.agents[k + 1].ended = true;
    tree.agents[k + 1].finished = true;
  }
}

const workload::AgentScript& TraceTreeScheduler::script_of(const Tree& tree,
                                                           std::size_t agent) const {
  return agent == 0 ? tree.trace->root : tree.trace->children[agent - 1].script;
}

// A recorded gap as replayed: capped, then sped up.
std::int64_t TraceTreeScheduler::gap_ns(double seconds) const {
  return s_to_ns_rounded(std::max(0.0, std::min(seconds, trees_.max_gap_s) / trees_.speed));
}

std::optional<std::int64_t> TraceTreeScheduler::next_due_ns() {
  if (!started_) open_all(0);
  if (!ready_.empty()) return std::get<0>(*ready_.begin());
  if (in_flight_ > 0) return kAwaitingReply;
  return std::nullopt;
}

TurnToSend TraceTreeScheduler::take(std::int64_t send_ns) {
  if (!started_) open_all(0);
  const auto [due_ns, slot, agent_index] = *ready_.begin();
  ready_.erase(ready_.begin());
  Tree& tree = *slots_[slot];
  Agent& agent = tree.agents[agent_index];
  const workload::AgentRequest& recorded = script_of(tree, agent_index).requests[agent.next];
  const workload::AgentReplayText text{plan_.seed, trees_.stream, tree.index, trees_.tokens,
                                       &kept_};
  agent.sending = workload::agent_prompt(*tree.trace, agent_index, agent.next,
                                         turns_[tree.trace_index][agent_index][agent.next], text);
  agent.user = workload::UserTurn{{}, recorded.input_len, recorded.output_len};
  agent.in_flight = true;
  ++in_flight_;
  const bool warmup = agent.next < agent.first_measured;
  if (tree.start_ns < 0 && !warmup) tree.start_ns = send_ns;
  TurnToSend turn{slot,
                  agent_index,
                  tree.index,
                  static_cast<std::int64_t>(agent.next),
                  due_ns,
                  &agent.user,
                  &agent.sending.history,
                  {}};
  turn.stream = recorded.streamed;
  turn.warmup = warmup;
  turn.cache_ceiling_tokens =
      ceiling_.admit(agent.sending.block_keys, tree.trace->block_size, tree.prefixes);
  turn.client_tokens = agent.sending.client_tokens;
  return turn;
}

// The root's next request, once it is not waiting on subagents: after its gap from the root's
// reply, and after its recorded gap from the last of its subagents' ends.
void TraceTreeScheduler::schedule_root(Tree& tree, std::size_t slot) {
  Agent& root = tree.agents[0];
  if (root.ended || root.in_flight || root.next >= tree.trace->root.requests.size()) return;
  std::int64_t children_end = -1;
  for (std::size_t k = 0; k < tree.trace->children.size(); ++k) {
    if (tree.trace->children[k].join != root.next) continue;
    const Agent& child = tree.agents[k + 1];
    if (!child.ended) return;  // the join waits
    children_end = std::max(children_end, child.last_end_ns);
  }
  const workload::AgentRequest& next = tree.trace->root.requests[root.next];
  std::int64_t due = root.last_end_ns + gap_ns(next.think_time_s);
  if (children_end >= 0) due = std::max(due, children_end + gap_ns(next.after_children_s));
  ready_.emplace(due, slot, 0);
}

// A root request ended well: the subagents it spawns start, and the root goes on.
void TraceTreeScheduler::after_root_request(Tree& tree, std::size_t slot, std::int64_t end_ns) {
  const std::size_t parent = tree.agents[0].next - 1;
  for (std::size_t k = 0; k < tree.trace->children.size(); ++k) {
    const workload::SubAgent& child = tree.trace->children[k];
    if (child.parent == parent && !tree.agents[k + 1].ended) {
      ready_.emplace(end_ns + gap_ns(child.spawn_gap_s), slot, k + 1);
    }
  }
  schedule_root(tree, slot);
}

bool TraceTreeScheduler::done(const Tree& tree) const {
  for (const Agent& agent : tree.agents) {
    if (agent.in_flight) return false;
  }
  if (tree.agents[0].ended) {
    // A failed root stops the tree; subagents not yet spawned never are.
    if (!tree.agents[0].finished) return true;
  }
  return std::all_of(tree.agents.begin(), tree.agents.end(),
                     [](const Agent& agent) { return agent.ended; });
}

std::optional<SessionEnd> TraceTreeScheduler::on_turn_end(const TurnToSend& turn,
                                                          TurnOutcome outcome, TurnReply /*reply*/,
                                                          std::int64_t end_ns) {
  Tree& tree = *slots_[turn.slot];
  Agent& agent = tree.agents[turn.branch];
  agent.in_flight = false;
  agent.sending = {};
  --in_flight_;
  agent.last_end_ns = end_ns;
  agent.last = outcome;
  tree.last_end_ns = std::max(tree.last_end_ns, end_ns);
  const std::size_t requests = script_of(tree, turn.branch).requests.size();
  if (outcome == TurnOutcome::ok) {
    if (!turn.warmup) ++agent.turns_completed;
    ++agent.next;
    agent.finished = agent.next >= requests;
    agent.ended = agent.finished;
  } else {
    agent.ended = true;
  }
  const bool stopped = tree.agents[0].ended && !tree.agents[0].finished;
  if (stopped) {
    // A failed root stops the tree: drop what it had due; what is in flight still ends.
    for (auto it = ready_.begin(); it != ready_.end();) {
      it = std::get<1>(*it) == turn.slot ? ready_.erase(it) : std::next(it);
    }
  } else if (turn.branch == 0) {
    after_root_request(tree, turn.slot, end_ns);
  } else if (!agent.ended) {
    const workload::AgentRequest& next = script_of(tree, turn.branch).requests[agent.next];
    ready_.emplace(end_ns + gap_ns(next.think_time_s), turn.slot, turn.branch);
  } else {
    schedule_root(tree, turn.slot);  // a join may be free now
  }
  if (!done(tree)) return std::nullopt;
  SessionEnd end = end_of(tree);
  open_next(turn.slot, end_ns);
  return end;
}

SessionEnd TraceTreeScheduler::end_of(const Tree& tree) const {
  SessionEnd end;
  end.session = tree.index;
  end.finished = true;
  for (const Agent& agent : tree.agents) {
    end.turns_completed += agent.turns_completed;
    end.finished = end.finished && agent.finished;
    end.failed = end.failed || (agent.ended && agent.last == TurnOutcome::failed);
    end.cut_short = end.cut_short || (agent.ended && agent.last == TurnOutcome::cancelled);
  }
  end.cut_short = end.cut_short || (!end.finished && !end.failed);
  end.start_ns = tree.start_ns;
  end.end_ns = tree.last_end_ns;
  return end;
}

void TraceTreeScheduler::body_made(const TurnToSend& turn) {
  slots_[turn.slot]->agents[turn.branch].sending = {};
}

std::vector<SessionEnd> TraceTreeScheduler::open_sessions() const {
  std::vector<SessionEnd> open;
  for (const std::optional<Tree>& tree : slots_) {
    if (tree && tree->start_ns >= 0) open.push_back(end_of(*tree));
  }
  return open;
}

}  // namespace bench::app
