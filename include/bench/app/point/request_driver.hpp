#pragma once
// A point's driver of one request per prompt (no --multi-turn): request i sends prompt i of the
// point's stream of the prompt source (or, with --reuse-prompts, prompt i mod n of stream 0),
// its body made ahead, off the event loop, by a PromptFeed; in an open loop it is due at its
// offset in the schedule after the epoch, in a closed loop as soon as a slot frees.
#include <cstdint>
#include <memory>
#include <optional>

#include "bench/app/point/point_driver.hpp"
#include "bench/app/point/prompt_feed.hpp"
#include "bench/schedule/open_loop.hpp"

namespace bench::app {

class RequestDriver final : public PointDriver {
 public:
  RequestDriver(DriverPlan plan, RecordSink& sink);
  ~RequestDriver() override;

  std::optional<std::int64_t> next_due_ns() override;
  engine::TransferRequest take_next(std::int64_t slot_free_ns, std::int64_t send_ns) override;
  std::uint64_t bodies_built_on_loop() const override { return feed_->built_by_caller(); }

 private:
  // The plan's decision (point_plan gives a schedule exactly when app::open_loop, which asks
  // schedule::is_open_loop), not one of the driver's own.
  bool open_loop() const { return arrivals_.has_value(); }

  std::unique_ptr<PromptFeed> feed_;                            // owns which request comes next
  std::optional<schedule::OpenLoopSchedule::Reader> arrivals_;  // open loop: the offsets
};

}  // namespace bench::app
