#include "bench/app/point/prompt_feed.hpp"

#include <algorithm>
#include <exception>
#include <utility>

namespace bench::app {

PromptFeed::PromptFeed(FeedPlan plan) : plan_(std::move(plan)), caller_make_body_(plan_.make_body) {
  plan_.lookahead = std::max<std::size_t>(plan_.lookahead, 2);
  producer_ = std::thread([this] { produce(); });
}

PromptFeed::~PromptFeed() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  room_.notify_one();
  producer_.join();
}

std::uint64_t PromptFeed::request_of(std::uint64_t ordinal) const {
  return plan_.first + ordinal * plan_.stride;
}

// A prompt or body that cannot be made (a dataset's image file gone or unreadable since the
// start-up check, the server's tokenizer failing) is that request's failure, carried as a value
// to the driver, which ends it unsent and counted; the feed goes on with the next request.
// Producer and caller make the same value, so neither the producer thread nor the event loop
// ever meets the exception.
PreparedRequest PromptFeed::prepare(std::uint64_t ordinal, const BodyMaker& make_body) const {
  PreparedRequest prepared;
  prepared.request = request_of(ordinal);
  try {
    workload::Prompt prompt =
        plan_.prompts.source->prompt(plan_.prompts.index_of(prepared.request));
    if (plan_.output_len_override) prompt.output_len = *plan_.output_len_override;
    prepared.input_len = prompt.input_len;
    prepared.client_tokens = prompt.client_tokens;
    prepared.output_len = prompt.output_len;
    prepared.stream = prompt.stream;
    prepared.body = make_body(prompt, prepared.request);
  } catch (const std::exception& error) {
    prepared.body.clear();
    prepared.error = error.what();
  }
  return prepared;
}

PreparedRequest PromptFeed::take() {
  std::uint64_t ordinal = 0;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    ordinal = next_to_take_++;
    // ready_ holds ordinals next_to_take_ (before the increment above) onwards, in order.
    if (!ready_.empty()) {
      PreparedRequest ready = std::move(ready_.front());
      ready_.pop_front();
      // Wake the producer once half the look-ahead is used, so it builds in batches rather
      // than waking for every request.
      if (ready_.size() == plan_.lookahead / 2) room_.notify_one();
      return ready;
    }
  }
  room_.notify_one();
  // The opening burst may catch the producer just started: only later ones are a sign of it
  // falling behind.
  if (ordinal >= plan_.lookahead) ++built_by_caller_;
  return prepare(ordinal, caller_make_body_);
}

void PromptFeed::produce() {
  for (;;) {
    std::uint64_t ordinal = 0;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      room_.wait(lock, [this] {
        return stopping_ || (ready_.size() < plan_.lookahead &&
                             request_of(next_to_take_ + ready_.size()) < plan_.build_ahead_below);
      });
      if (stopping_) return;
      ordinal = next_to_take_ + ready_.size();
    }
    PreparedRequest built = prepare(ordinal, plan_.make_body);  // the costly part, unlocked
    const std::lock_guard<std::mutex> lock(mutex_);
    // Keep it only if the caller has not gone past it (building it itself meanwhile).
    if (ordinal == next_to_take_ + ready_.size()) ready_.push_back(std::move(built));
  }
}

}  // namespace bench::app
