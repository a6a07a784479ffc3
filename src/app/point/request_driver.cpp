// One request per prompt: each request's prompt and body from the feed, due by the schedule (an
// open loop) or at once (a closed loop, paced by the engine's free slots).
#include "bench/app/point/request_driver.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "bench/app/point/prompt_body.hpp"
#include "bench/images/image_file.hpp"
#include "bench/images/image_parts.hpp"
#include "driver_slot.hpp"

namespace bench::app {

namespace {

// The image data URLs of a chat request: the dataset row's own files (each read whole, once,
// here), then --images-per-request's fresh random ones.
std::vector<std::string> request_image_urls(const workload::Prompt& prompt,
                                            const images::ImageSpec& random, std::uint64_t nonce,
                                            std::uint64_t number) {
  std::vector<std::string> urls;
  for (const std::string& file : prompt.image_files) {
    urls.push_back(images::image_file_data_url(file));
  }
  if (random.enabled()) {
    for (std::string& url : images::request_images(random, nonce, number)) {
      urls.push_back(std::move(url));
    }
  }
  return urls;
}

// The body of a prompt (prompt_body.hpp), a chat prompt's with the row's image files and
// --images-per-request's fresh images after the user's text. Each copy of the maker owns its
// request options, so the feed's producer and the event loop never share one. Reading and
// encoding the images is the costly part, and it runs here, on the feed's producer.
BodyMaker body_maker(const DriverPlan& plan) {
  return [request = plan.target.request, run_stream = plan.target.request.stream,
          images = plan.bodies.images,
          nonce = images::stream_nonce(plan.bodies.image_nonce, plan.bodies.prompts.stream)](
             const workload::Prompt& prompt, std::uint64_t number) mutable {
    request.max_tokens = prompt.output_len;
    request.stream = sent_streamed(prompt.stream, run_stream);
    return prompt_body(request, prompt,
                       [&] { return request_image_urls(prompt, images, nonce, number); });
  };
}

}  // namespace

RequestDriver::RequestDriver(DriverPlan plan, RecordSink& sink)
    : PointDriver(std::move(plan), sink) {
  if (plan_.per_prompt.schedule != nullptr) {
    arrivals_.emplace(plan_.per_prompt.schedule->reader());
    measured_start_ns_ = plan_.per_prompt.schedule->measured_start_ns().value_or(-1);
  }
  FeedPlan feed;
  feed.prompts = plan_.bodies.prompts;
  feed.first = plan_.first;
  feed.stride = plan_.stride;
  feed.lookahead = plan_.bodies.lookahead;
  feed.build_ahead_below = plan_.bodies.build_ahead_below;
  feed.output_len_override = plan_.bodies.output_len_override;
  feed.make_body = body_maker(plan_);
  feed_ = std::make_unique<PromptFeed>(std::move(feed));
}

RequestDriver::~RequestDriver() = default;

std::optional<std::int64_t> RequestDriver::next_due_ns() {
  if (stopped()) return std::nullopt;
  if (feed_->next_request() >= plan_.per_prompt.end_request) return std::nullopt;
  if (open_loop()) {
    const std::uint64_t next = feed_->next_request();
    const std::optional<std::int64_t> offset = arrivals_->offset_ns(next);
    if (!offset || *offset >= measured_end_ns()) return std::nullopt;
    return plan_.timing.epoch_ns + *offset;
  }
  // Closed loop: every request is due at once; the engine's concurrency limit paces them.
  if (measured_sent_ >= plan_.per_prompt.measured_requests) return std::nullopt;
  const std::int64_t since_epoch = plan_.timing.clock_ns() - plan_.timing.epoch_ns;
  if (since_epoch >= plan_.per_prompt.send_until_ns) return std::nullopt;
  const std::int64_t end = measured_end_ns();
  if (end != kNoLimitNs && since_epoch >= end) return std::nullopt;
  return plan_.timing.epoch_ns;
}

engine::TransferRequest RequestDriver::take_next(std::int64_t slot_free_ns, std::int64_t send_ns) {
  PreparedRequest prepared = feed_->take();  // the feed serves this driver's requests in order
  const std::uint64_t index = prepared.request;

  Slot* slot = &acquire_slot();
  metrics::RequestRecord& record =
      slot->begin(sent_streamed(prepared.stream, plan_.target.request.stream));
  record.index = index;
  record.start_ns = send_ns - plan_.timing.epoch_ns;
  record.warmup = index < plan_.per_prompt.warmup_requests ||
                  record.start_ns < plan_.per_prompt.warmup_until_ns;
  if (open_loop()) {
    // The schedule's time is the intended start; a wait for a concurrency slot after it is
    // part of what the user of an overloaded server would see (coordinated omission).
    record.intended_start_ns = arrivals_->offset_ns(index).value_or(record.start_ns);
    record.slot_wait_ns =
        std::max<std::int64_t>(0, slot_free_ns - plan_.timing.epoch_ns - record.intended_start_ns);
  } else {
    record.intended_start_ns =
        std::max(slot_free_ns, plan_.timing.epoch_ns) - plan_.timing.epoch_ns;
  }
  record.requested_input_len = prepared.input_len;
  record.client_prompt_tokens = prepared.client_tokens;
  record.requested_output_len = prepared.output_len;
  ++sent_;
  if (!record.warmup) {
    ++measured_sent_;
    if (measured_start_ns_ < 0) measured_start_ns_ = record.start_ns;
  }
  count_started();

  engine::TransferRequest transfer{plan_.target.urls[server_of(record)],
                                   std::move(prepared.body),
                                   plan_.target.headers,
                                   slot,
                                   {},
                                   {}};
  // Its body could not be made: the engine ends it at once, failed, and its record is counted
  // with the others (warm-up or measured), as any request's is.
  if (!prepared.built()) transfer.unsent = not_built(std::move(prepared.error));
  trace(record, transfer);
  return transfer;
}

}  // namespace bench::app
