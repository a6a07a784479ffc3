#pragma once
// A point's driver of --multi-turn's sessions: a SessionScheduler (a replayed agent trace's: a
// TraceTreeScheduler) owns which turn is due next;
// each turn's body is the session's whole history, built on the loop as the turn is sent (it
// holds the reply that has just ended), and its end goes back to its session. A turn is due when
// its user has thought; the wait for a slot after that is the server's, as in an open loop.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench/app/point/image_feed.hpp"
#include "bench/app/point/point_driver.hpp"
#include "bench/app/point/session_scheduler.hpp"

namespace bench::app {

class SessionDriver final : public PointDriver {
 public:
  /// `plan.sessions` must be set.
  SessionDriver(DriverPlan plan, RecordSink& sink);
  ~SessionDriver() override;

  std::optional<std::int64_t> next_due_ns() override;
  engine::TransferRequest take_next(std::int64_t slot_free_ns, std::int64_t send_ns) override;
  std::uint64_t bodies_built_on_loop() const override {
    return images_ ? images_->made_by_caller() : 0;
  }
  std::vector<SessionEnd> open_sessions() const override { return sessions_->open_sessions(); }

 private:
  void turn_ended(const TurnToSend& turn, TurnOutcome outcome, TurnReply reply,
                  std::int64_t end_ns) override;
  const std::vector<std::string>* headers_of(const TurnToSend& turn);

  std::unique_ptr<ImageFeed> images_;        // with images: made ahead of the turns
  std::unique_ptr<TurnScheduler> sessions_;  // owns which turn comes next
  // --session-header: each session's header lines, by session and agent (see headers_of).
  std::map<std::pair<std::uint64_t, std::size_t>, std::unique_ptr<std::vector<std::string>>>
      session_headers_;
};

}  // namespace bench::app
