#pragma once
// When each turn of a multi-turn run is due (--multi-turn): a fixed number of sessions is open
// at once; a session's first turn is due when it opens, each later turn at the previous turn's
// end plus a think time, and a session that ends (its last turn done, or a turn failed) makes
// room for the next session at once. A session that thinks, or waits on its reply, holds no
// concurrency slot: the engine's concurrency counts requests in flight, and it paces the turns
// that are due. Times are ns after the point's epoch. One scheduler per session driver (client
// thread); it knows nothing of HTTP.
//
// An agent session (workload/agent_session.hpp) has one user turn, its task; each later turn
// answers the last reply's tool calls (or gives the user's next instruction), and the session
// ends after the turn whose prompt reached the context target, or after its turn cap. With
// --fan-out K its first reply starts K branches (sub-agents): each a copy of the history so far
// that goes on by itself (its own tool results and think times, workload::branch_key), to its
// own end; the session ends when every branch has, and only then gives up its slot.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bench/workload/agent_session.hpp"
#include "bench/workload/agent_trace.hpp"
#include "bench/workload/multi_turn.hpp"
#include "bench/workload/token_prompts.hpp"

namespace bench::app {

struct SessionPlan {
  // The sessions this scheduler opens, in order: first, first + stride, ... below `end`.
  std::uint64_t first = 0;
  std::uint64_t stride = 1;
  std::uint64_t end = std::numeric_limits<std::uint64_t>::max();
  std::size_t open_at_once = 1;  // sessions open at once (>= 1)
  workload::ThinkTime think_time;
  std::uint64_t seed = 0;  // of the think times
  // A session's user turns, by its index (workload::session_turns); at least one. An agent
  // session's first is its task, the rest unused.
  std::function<std::vector<workload::UserTurn>(std::uint64_t session)> turns_of;
  // Agent sessions: what their later turns send and when they end.
  struct Agent {
    workload::AgentTurnText text;  // follow_up_words is set per session, from its task
    std::optional<std::int64_t> context_tokens;  // --session-context
    std::optional<std::int64_t> max_turns;       // --turns, of each branch
    std::size_t fan_out = 1;                     // --fan-out: branches after the first reply
  };
  std::optional<Agent> agent;
  // --images-per-request: the images each user turn sends (a plain session's every turn, an
  // agent's task), taken as the turn is built; empty: none.
  std::function<std::vector<std::string>()> user_images;
  // --trace-format weka: recorded session trees in place of turns_of's sessions; session k
  // replays trace k mod their count (trace_tree_scheduler.hpp). nullopt: sessions of turns.
  struct Trees {
    std::shared_ptr<const std::vector<workload::AgentTrace>> traces;
    double max_gap_s = 10.0;       // --trace-max-gap
    double speed = 1.0;            // --trace-speed
    bool start_at_random = false;  // --trace-start random: each replay from a random request
    std::uint64_t stream = 0;      // the point's prompt stream
    workload::TokenLengths tokens;
  };
  std::optional<Trees> trees;
};

/// How a turn's reply ended, for its session's history.
struct TurnReply {
  std::string text;                            // the answer text, as streamed
  std::vector<workload::ToolCall> tool_calls;  // the calls it made, as streamed
  // The turn's prompt length: the server's prompt_tokens, else bench's word count (-1: neither).
  std::int64_t context_tokens = -1;
};

/// A turn to send now.
struct TurnToSend {
  std::size_t slot = 0;                      // the open session's slot: give it back to on_turn_end
  std::size_t branch = 0;                    // its branch (--fan-out; 0 without): give it back too
  std::uint64_t session = 0;                 // the session's index
  std::int64_t turn = 0;                     // 0-based
  std::int64_t due_ns = 0;                   // when it became due: its intended start
  const workload::UserTurn* user = nullptr;  // valid until on_turn_end
  const workload::Conversation* history = nullptr;  // ends with this turn's user text
  // Why its text could not be made (its images failing): it is then to fail, unsent, and end
  // its session as a failed turn does. Empty: made.
  std::string text_error;
  // Whether it is sent streamed, as a recorded request was; nullopt: the run's (--no-stream).
  std::optional<bool> stream = std::nullopt;
  bool warmup = false;  // a replay's warm-up (the request before its random start): unmeasured
  // A recorded session's request: the prompt tokens its blocks share with what was sent before
  // (workload::BlockCeiling), and the tokenizer's count of its prompt; -1: not known.
  std::int64_t cache_ceiling_tokens = -1;
  std::int64_t client_tokens = -1;
};

/// How a session ended.
struct SessionEnd {
  std::uint64_t session = 0;
  std::int64_t turns_completed = 0;  // turns that ended successfully, of every branch
  bool finished = false;  // its last turn is done (an agent's: its target reached), in every branch
  bool failed = false;    // a failed turn ended the session (or one of its branches)
  bool cut_short = false;     // bench cancelled a turn (a stop), or the run ended first
  std::int64_t start_ns = 0;  // its first turn's send
  std::int64_t end_ns = 0;    // its last turn's end
  bool completed() const { return finished && !failed && !cut_short; }
};

/// How a turn ended, for its session.
enum class TurnOutcome { ok, failed, cancelled };

/// What a session driver asks of its sessions, whichever kind they are: sessions of turns
/// (SessionScheduler) or recorded session trees (TraceTreeScheduler).
class TurnScheduler {
 public:
  /// next_due_ns() while every open session waits on a reply: more turns will come, but none is
  /// due until a reply ends (so a source that says "nothing left" is never mistaken for this).
  static constexpr std::int64_t kAwaitingReply = std::numeric_limits<std::int64_t>::max();

  virtual ~TurnScheduler() = default;

  /// When the next turn is due (the earliest of the open sessions'), kAwaitingReply, or nullopt
  /// once every session of the plan has ended.
  virtual std::optional<std::int64_t> next_due_ns() = 0;

  /// Takes the turn next_due_ns() named (it must be a time, not kAwaitingReply), sent at
  /// `send_ns`.
  virtual TurnToSend take(std::int64_t send_ns) = 0;

  /// The turn `turn` (its slot and branch) ended at `end_ns`: with its reply when ok; failed or
  /// cancelled, it ends its branch. Returns the session's end when this turn ended its last
  /// branch (a new session then opens in its slot, its first turn due at `end_ns`).
  virtual std::optional<SessionEnd> on_turn_end(const TurnToSend& turn, TurnOutcome outcome,
                                                TurnReply reply, std::int64_t end_ns) = 0;

  /// The sessions still open (cut short by the run's end), as they stand.
  virtual std::vector<SessionEnd> open_sessions() const = 0;

  /// The turn's body is made: its history is no longer read (a scheduler that made it for this
  /// turn alone may free it now rather than hold it while the request is in flight).
  virtual void body_made(const TurnToSend& /*turn*/) {}
};

class SessionScheduler final : public TurnScheduler {
 public:
  explicit SessionScheduler(SessionPlan plan);

  std::optional<std::int64_t> next_due_ns() override;
  TurnToSend take(std::int64_t send_ns) override;
  std::optional<SessionEnd> on_turn_end(const TurnToSend& turn, TurnOutcome outcome,
                                        TurnReply reply, std::int64_t end_ns) override;
  std::vector<SessionEnd> open_sessions() const override;

  std::size_t sessions_opened() const { return opened_; }

 private:
  // One line of a session's conversation: the session itself, or one of its fan-out's.
  struct Branch {
    workload::Conversation history;
    std::int64_t next_turn = 0;  // the turn to send next (or in flight)
    std::int64_t turns_completed = 0;
    bool finished = false;  // its last turn is done
    bool ended = false;     // finished, failed or cancelled: it sends no more
    TurnOutcome last = TurnOutcome::ok;
  };
  struct Session {
    std::uint64_t index = 0;
    std::vector<workload::UserTurn> turns;
    std::vector<Branch> branches;  // [0] from the start; a fan-out adds the rest
    std::int64_t start_ns = -1;    // the first turn's send; -1 before it
    std::int64_t last_end_ns = 0;
  };
  // Turns due, earliest first: (due ns, slot, branch).
  using Due = std::tuple<std::int64_t, std::size_t, std::size_t>;

  void open_all(std::int64_t at_ns);
  void open_next(std::size_t slot, std::int64_t at_ns);
  SessionEnd end_of(const Session& session) const;
  bool last_turn_done(const Session& session, const Branch& branch,
                      std::int64_t context_tokens) const;
  void add_turn_text(Session& session, std::size_t branch);
  void fan_out(Session& session);
  void schedule(const Session& session, std::size_t slot, std::size_t branch, std::int64_t end_ns);

  SessionPlan plan_;
  std::vector<std::optional<Session>> slots_;
  std::set<Due> ready_;  // turns of sessions thinking
  std::uint64_t next_session_;
  std::size_t opened_ = 0;
  std::size_t in_flight_ = 0;
  bool started_ = false;
};

}  // namespace bench::app
