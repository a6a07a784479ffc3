#include "bench/app/point/session_scheduler.hpp"

#include <algorithm>

namespace bench::app {

SessionScheduler::SessionScheduler(SessionPlan plan)
    : plan_(std::move(plan)), next_session_(plan_.first) {
  plan_.open_at_once = std::max<std::size_t>(1, plan_.open_at_once);
  plan_.stride = std::max<std::uint64_t>(1, plan_.stride);
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
  slots_[slot] = std::move(session);
  ready_.emplace(at_ns, slot);
}

std::optional<std::int64_t> SessionScheduler::next_due_ns() {
  if (!started_) open_all(0);
  if (!ready_.empty()) return ready_.begin()->first;
  if (in_flight_ > 0) return kAwaitingReply;
  return std::nullopt;
}

TurnToSend SessionScheduler::take(std::int64_t send_ns) {
  if (!started_) open_all(0);
  const auto [due_ns, slot] = *ready_.begin();
  ready_.erase(ready_.begin());
  Session& session = *slots_[slot];
  add_turn_text(session);
  // An agent session asks its task's output length of every turn.
  const workload::UserTurn& user =
      session.turns[plan_.agent ? 0 : static_cast<std::size_t>(session.next_turn)];
  session.in_flight = true;
  if (session.start_ns < 0) session.start_ns = send_ns;
  ++in_flight_;
  return TurnToSend{slot, session.index, session.next_turn, due_ns, &user, &session.history};
}

// What turn next_turn adds to the history: its user turn, or an agent's tool results (or the
// user's next instruction) after its task.
void SessionScheduler::add_turn_text(Session& session) {
  if (!plan_.agent || session.next_turn == 0) {
    session.history.add_user(session.turns[static_cast<std::size_t>(session.next_turn)].text);
    return;
  }
  workload::AgentTurnText text = plan_.agent->text;
  text.follow_up_words = std::max<std::int64_t>(1, session.turns.front().input_len);
  workload::add_agent_turn(session.history, text, session.index, session.next_turn);
}

// Whether the turn just done (next_turn already counts it) was the session's last: the turns
// ran out; for an agent session, its prompt reached the context target or the turn cap came.
bool SessionScheduler::last_turn_done(const Session& session, std::int64_t context_tokens) const {
  if (!plan_.agent) return session.next_turn >= static_cast<std::int64_t>(session.turns.size());
  const SessionPlan::Agent& agent = *plan_.agent;
  if (agent.max_turns && session.next_turn >= *agent.max_turns) return true;
  return agent.context_tokens && context_tokens >= *agent.context_tokens;
}

SessionEnd SessionScheduler::end_of(const Session& session, TurnOutcome last) const {
  SessionEnd end;
  end.session = session.index;
  end.turns_planned = plan_.agent ? plan_.agent->max_turns.value_or(0)
                                  : static_cast<std::int64_t>(session.turns.size());
  end.turns_completed = session.turns_completed;
  end.finished = session.finished;
  end.failed = last == TurnOutcome::failed;
  end.cut_short = last == TurnOutcome::cancelled || (last == TurnOutcome::ok && !session.finished);
  end.start_ns = session.start_ns;
  end.end_ns = session.last_end_ns;
  return end;
}

std::optional<SessionEnd> SessionScheduler::on_turn_end(std::size_t slot, TurnOutcome outcome,
                                                        TurnReply reply, std::int64_t end_ns) {
  Session& session = *slots_[slot];
  session.in_flight = false;
  --in_flight_;
  session.last_end_ns = end_ns;
  if (outcome == TurnOutcome::ok) {
    // A plain multi-turn history holds the replies' text only: a call left unanswered by a
    // tool message is an invalid history (OpenAI's API refuses it).
    if (!plan_.agent) reply.tool_calls.clear();
    workload::name_tool_calls(reply.tool_calls, session.index, session.next_turn);
    session.history.add_reply(std::move(reply.text), std::move(reply.tool_calls));
    ++session.turns_completed;
    ++session.next_turn;
    session.finished = last_turn_done(session, reply.context_tokens);
    if (!session.finished) {
      const std::int64_t think_ns =
          workload::think_time_ns(plan_.think_time, plan_.seed, session.index,
                                  static_cast<std::uint64_t>(session.next_turn));
      ready_.emplace(end_ns + think_ns, slot);
      return std::nullopt;
    }
  }
  SessionEnd end = end_of(session, outcome);
  open_next(slot, end_ns);
  return end;
}

std::vector<SessionEnd> SessionScheduler::open_sessions() const {
  std::vector<SessionEnd> open;
  for (const std::optional<Session>& session : slots_) {
    if (session && session->start_ns >= 0) open.push_back(end_of(*session, TurnOutcome::ok));
  }
  return open;
}

}  // namespace bench::app
