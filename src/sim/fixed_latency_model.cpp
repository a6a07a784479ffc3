#include <algorithm>

#include "bench/sim/generation_model.hpp"

namespace bench::sim {

FixedLatencyModel::FixedLatencyModel(std::int64_t ttft_ns, std::int64_t tpot_ns,
                                     std::int64_t tokens_per_step)
    : ttft_ns_(std::max<std::int64_t>(0, ttft_ns)),
      tpot_ns_(std::max<std::int64_t>(0, tpot_ns)),
      tokens_per_step_(std::max<std::int64_t>(1, tokens_per_step)) {}

void FixedLatencyModel::admit(StreamId id, std::int64_t, std::int64_t output_tokens,
                              std::int64_t now_ns) {
  streams_[id] = Progress{std::max<std::int64_t>(1, output_tokens), false};
  due_.push(Due{now_ns + ttft_ns_, id});
}

void FixedLatencyModel::remove(StreamId id) { streams_.erase(id); }

void FixedLatencyModel::resume(StreamId id, std::int64_t now_ns) {
  const auto found = streams_.find(id);
  if (found == streams_.end() || !found->second.held) return;
  found->second.held = false;
  due_.push(Due{now_ns, id});
}

std::int64_t FixedLatencyModel::next_event_ns() const {
  // Stale entries (removed streams) only make the loop wake early once; advance drops them.
  return due_.empty() ? kNever : due_.top().at_ns;
}

void FixedLatencyModel::advance(std::int64_t now_ns, TokenSink& sink) {
  while (!due_.empty() && due_.top().at_ns <= now_ns) {
    const Due due = due_.top();
    due_.pop();
    const auto found = streams_.find(due.id);
    if (found == streams_.end()) continue;  // removed since it was scheduled
    Progress& progress = found->second;
    const std::int64_t tokens = std::min(tokens_per_step_, progress.remaining);
    progress.remaining -= tokens;
    const bool finished = progress.remaining == 0;
    if (finished) streams_.erase(found);
    const bool accepting = sink.on_tokens(due.id, tokens);
    if (finished) continue;
    // `progress` may dangle if the sink removed the stream; look it up again.
    const auto still = streams_.find(due.id);
    if (still == streams_.end()) continue;
    if (accepting) {
      // Due times advance from the schedule, not from now, so a late loop does not drift.
      due_.push(Due{due.at_ns + tokens_per_step_ * tpot_ns_, due.id});
    } else {
      still->second.held = true;
    }
  }
}

}  // namespace bench::sim
