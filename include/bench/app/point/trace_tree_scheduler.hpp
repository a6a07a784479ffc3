#pragma once
// When each request of a replayed agent trace is due (--dataset trace --trace-format weka):
// a fixed number of lanes (--concurrency, or --sessions) each replay one recorded session tree
// at a time (workload/agent_trace.hpp); a lane whose tree ends starts the next trace at once.
// Within a tree:
//   - the root agent's requests go in order, each after the reply before it ended and its
//     recorded gap ("think_time");
//   - when a root request ends, the subagents spawned from it start after their recorded spawn
//     gap, each its own requests in order with their own gaps;
//   - the root request after them (the join) waits until every one of them has ended, then for
//     its recorded gap after the last (and never less than its own gap after the root's reply);
//     a subagent with no root request after it runs on in the background;
//   - every gap is capped (--trace-max-gap) and then divided by --trace-speed.
// With --trace-start random a replay starts at a root request drawn from (seed, tree): the one
// before it is sent first as warm-up (unmeasured; it carries the prefix), and subagents spawned
// before the start are left out.
// A failed request ends its agent: a failed root request ends the tree (what is in flight still
// ends); a failed subagent frees its join. Subagents take no lane: in-flight requests can exceed
// the lanes. Each request's text is made as it is sent (workload/agent_history.hpp), and with
// it the prefix its blocks share with what the tree (or any tree's head) sent before: the
// trace's prefix-cache ceiling. Sessions (records' "session") are trees, branches (their
// "branch") agents: 0 the root, k the k-th subagent; turns (their "turn") a request's index in
// its agent.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "bench/app/point/session_scheduler.hpp"
#include "bench/workload/agent_history.hpp"

namespace bench::app {

class TraceTreeScheduler final : public TurnScheduler {
 public:
  /// `plan.trees` is set; its first, stride, end and open_at_once say which trees this
  /// scheduler replays and how many lanes it has.
  explicit TraceTreeScheduler(SessionPlan plan);

  std::optional<std::int64_t> next_due_ns() override;
  TurnToSend take(std::int64_t send_ns) override;
  std::optional<SessionEnd> on_turn_end(const TurnToSend& turn, TurnOutcome outcome,
                                        TurnReply reply, std::int64_t end_ns) override;
  std::vector<SessionEnd> open_sessions() const override;
  /// A request's history is made for it alone (its body holds it all): freed once its body is.
  void body_made(const TurnToSend& turn) override;

 private:
  struct Agent {
    std::size_t next = 0;            // the request to send next (or in flight)
    std::size_t first_measured = 0;  // requests before it are the replay's warm-up
    bool in_flight = false;
    bool ended = false;     // every request sent and ended, or one failed
    bool finished = false;  // every request ended well
    TurnOutcome last = TurnOutcome::ok;
    std::int64_t last_end_ns = 0;
    std::int64_t turns_completed = 0;
    workload::AgentPrompt sending;  // the request in flight: its history, until it ends
    workload::UserTurn user;        // its lengths (TurnToSend::user)
  };
  struct Tree {
    std::uint64_t index = 0;
    const workload::AgentTrace* trace = nullptr;
    std::size_t trace_index = 0;
    std::vector<Agent> agents;  // [0] the root, [k] children[k - 1]
    workload::BlockCeiling::Prefixes prefixes;
    std::int64_t start_ns = -1;
    std::int64_t last_end_ns = 0;
  };
  using Due = std::tuple<std::int64_t, std::size_t, std::size_t>;  // (due ns, slot, agent)

  void open_all(std::int64_t at_ns);
  void open_next(std::size_t slot, std::int64_t at_ns);
  void start_at_random(Tree& tree) const;
  const workload::AgentScript& script_of(const Tree& tree, std::size_t agent) const;
  std::int64_t gap_ns(double seconds) const;
  void after_root_request(Tree& tree, std::size_t slot, std::int64_t end_ns);
  void schedule_root(Tree& tree, std::size_t slot);
  bool done(const Tree& tree) const;
  SessionEnd end_of(const Tree& tree) const;

  SessionPlan plan_;
  const SessionPlan::Trees& trees_;
  // Each trace's agents' turns (workload::agent_turns): [trace][agent][request].
  std::vector<std::vector<std::vector<std::vector<workload::TurnStart>>>> turns_;
  std::vector<std::optional<Tree>> slots_;
  std::set<Due> ready_;
  workload::BlockCeiling ceiling_;
  // The blocks made to a tokenizer's lengths and the messages' counts, kept for the requests
  // that resend them.
  workload::ResentText kept_;
  std::uint64_t next_tree_;
  std::size_t in_flight_ = 0;
  bool started_ = false;
};

}  // namespace bench::app
