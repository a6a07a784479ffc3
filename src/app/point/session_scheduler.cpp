#include "bench/app/point/session_scheduler.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

namespace bench::app {

SessionScheduler::SessionScheduler(SessionPlan plan)
    : plan_(std::move(plan)), next_session_(plan_.first) {
  plan_.open_at_once = std::max<std::size_t>(1, plan_.open_at_once);
  plan_.stride = std::max<std::uint64_t>(1, plan_.stride);
  if (plan_.agent) plan_.agent->fan_out = std::max<std::size_t>(1, plan_.agent->fan_out);
  slots_.resize(plan_.open_at_once);
}

// Opens the first sessions, all due at the start, on the first question asked: the epoch is
// known by then.
void SessionScheduler::open_all(std::int64_t at_ns) {
  started_ = true;
  for (std::size_t slot = 0; slot < slots_.size(); ++slot) open_next(slot, at_ns);
}

void SessionScheduler::open_next(std::size_t slot, std::int64_t at_ns) {
  slots_[slot].reset();
  if (next_session_ >= plan_.end) return;
  Session session;
  session.index = next_session_;
  next_session_ += plan_.stride;
  session.turns = plan_.turns_of(session.index);
  ++opened_;
  if (session.turns.empty()) {  // nothing to send: the next session takes the slot
    open_next(slot, at_ns);
    return;
  }
  session.branches.emplace_back();
  slots_[slot] = std::move(session);
  ready_.emplace(at_ns, slot, 0);
}

std::optional<std::int64_t> SessionScheduler::next_due_ns() {
  if (!started_) open_all(0);
  if (!ready_.empty()) return std::get<0>(*ready_.begin());
  if (in_flight_ > 0) return kAwaitingReply;
  return std::nullopt;
}

TurnToSend SessionScheduler::take(std::int64_t send_ns) {
  if (!started_) open_all(0);
  const auto [due_ns, slot, branch_index] = *ready_.begin();
  ready_.erase(ready_.begin());
  Session& session = *slots_[slot];
  // What cannot be made fails this turn (it is still taken, so it ends as any turn ends) and
  // not the run: the history it leaves is never sent, since a failed turn ends its branch.
  std::string text_error;
  try {
    add_turn_text(session, branch_index);
  } catch (const std::exception& error) {
    text_error = error.what();
  }
  Branch& branch = session.branches[branch_index];
  // An agent session asks its task's output length of every turn.
  const workload::UserTurn& user =
      session.turns[plan_.agent ? 0 : static_cast<std::size_t>(branch.next_turn)];
  if (session.start_ns < 0) session.start_ns = send_ns;
  ++in_flight_;
  return TurnToSend{slot,   branch_index, session.index,   branch.next_turn,
                    due_ns, &user,        &branch.history, std::move(text_error)};
}

// What turn next_turn adds to the history: its user turn, or an agent's tool results (or the
// user's next instruction) after its task, drawn by the branch's key.
void SessionScheduler::add_turn_text(Session& session, std::size_t branch_index) {
  Branch& branch = session.branches[branch_index];
  if (branch.next_turn == 0 && !session.turns.front().system_text.empty()) {
    branch.history.add_system(session.turns.front().system_text);
  }
  if (!plan_.agent || branch.next_turn == 0) {
    branch.history.add_user(session.turns[static_cast<std::size_t>(branch.next_turn)].text,
                            plan_.user_images ? plan_.user_images() : std::vector<std::string>{});
    return;
  }
  workload::AgentTurnText text = plan_.agent->text;
  text.follow_up_words = std::max<std::int64_t>(1, session.turns.front().input_len);
  workload::add_agent_turn(branch.history, text, workload::branch_key(session.index, branch_index),
                           branch.next_turn, plan_.user_images);
}

// Whether the turn just done (next_turn already counts it) was the branch's last: the turns
// ran out; for an agent session, its prompt reached the context target or the turn cap came.
bool SessionScheduler::last_turn_done(const Session& session, const Branch& branch,
                                      std::int64_t context_tokens) const {
  if (!plan_.agent) return branch.next_turn >= static_cast<std::int64_t>(session.turns.size());
  const SessionPlan::Agent& agent = *plan_.agent;
  if (agent.max_turns && branch.next_turn >= *agent.max_turns) return true;
  return agent.context_tokens && context_tokens >= *agent.context_tokens;
}

// The first reply starts the session's other branches: each a copy of the history so far
// (the task and that reply), its turns yet to come; the first turn is counted once, in branch 0.
void SessionScheduler::fan_out(Session& session) {
  const std::size_t branches = plan_.agent ? plan_.agent->fan_out : 1;
  if (branches <= 1 || session.branches.size() != 1) return;
  Branch copy = session.branches.front();
  copy.turns_completed = 0;
  session.branches.reserve(branches);
  for (std::size_t k = 1; k < branches; ++k) session.branches.push_back(copy);
}

void SessionScheduler::schedule(const Session& session, std::size_t slot, std::size_t branch,
                                std::int64_t end_ns) {
  const std::int64_t think_ns = workload::think_time_ns(
      plan_.think_time, plan_.seed, workload::branch_key(session.index, branch),
      static_cast<std::uint64_t>(session.branches[branch].next_turn));
  ready_.emplace(end_ns + think_ns, slot, branch);
}

SessionEnd SessionScheduler::end_of(const Session& session) const {
  SessionEnd end;
  end.session = session.index;
  end.finished = true;
  for (const Branch& branch : session.branches) {
    end.turns_completed += branch.turns_completed;
    end.finished = end.finished && branch.finished;
    end.failed = end.failed || (branch.ended && branch.last == TurnOutcome::failed);
    end.cut_short = end.cut_short || (branch.ended && branch.last == TurnOutcome::cancelled);
  }
  // Still open at the run's end, or a branch cancelled: cut short unless a failure says more.
  end.cut_short = end.cut_short || (!end.finished && !end.failed);
  end.start_ns = session.start_ns;
  end.end_ns = session.last_end_ns;
  return end;
}

std::optional<SessionEnd> SessionScheduler::on_turn_end(const TurnToSend& turn, TurnOutcome outcome,
                                                        TurnReply reply, std::int64_t end_ns) {
  Session& session = *slots_[turn.slot];
  Branch& branch = session.branches[turn.branch];
  --in_flight_;
  session.last_end_ns = std::max(session.last_end_ns, end_ns);
  branch.last = outcome;
  if (outcome == TurnOutcome::ok) {
    // A plain multi-turn history holds the replies' text only: a call left unanswered by a
    // tool message is an invalid history (OpenAI's API refuses it).
    if (!plan_.agent) reply.tool_calls.clear();
    workload::name_tool_calls(reply.tool_calls, workload::branch_key(session.index, turn.branch),
                              branch.next_turn);
    branch.history.add_reply(std::move(reply.text), std::move(reply.tool_calls));
    ++branch.turns_completed;
    ++branch.next_turn;
    branch.finished = last_turn_done(session, branch, reply.context_tokens);
    if (!branch.finished) {
      const std::size_t before = session.branches.size();
      if (turn.branch == 0 && turn.turn == 0) fan_out(session);  // `branch` may have moved
      schedule(session, turn.slot, turn.branch, end_ns);
      for (std::size_t k = before; k < session.branches.size(); ++k) {
        schedule(session, turn.slot, k, end_ns);
      }
      return std::nullopt;
    }
  }
  session.branches[turn.branch].ended = true;
  for (const Branch& other : session.branches) {
    if (!other.ended) return std::nullopt;  // the session goes on in its other branches
  }
  SessionEnd end = end_of(session);
  open_next(turn.slot, end_ns);
  return end;
}

std::vector<SessionEnd> SessionScheduler::open_sessions() const {
  std::vector<SessionEnd> open;
  for (const std::optional<Session>& session : slots_) {
    if (session && session->start_ns >= 0) open.push_back(end_of(*session));
  }
  return open;
}

}  // namespace bench::app
