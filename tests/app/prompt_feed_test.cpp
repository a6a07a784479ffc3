#include "bench/app/point/prompt_feed.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "bench/workload/dataset.hpp"
#include "bench/workload/prompt_source.hpp"
#include "wait_count.hpp"

namespace {

using bench::app::FeedPlan;
using bench::app::PreparedRequest;
using bench::app::PromptFeed;
using bench::workload::prompt_index;

std::unique_ptr<bench::workload::PromptSource> random_source() {
  bench::workload::DatasetOptions options;
  options.input_len = 16;
  options.output_len = 4;
  options.seed = 11;
  return bench::workload::open_prompt_source(options);
}

std::string body_of(const bench::workload::Prompt& prompt, std::uint64_t /*request*/ = 0) {
  return "body:" + prompt.text;
}

FeedPlan plan_for(const bench::workload::PromptSource& source) {
  FeedPlan plan;
  plan.prompts.source = &source;
  plan.make_body = [](const bench::workload::Prompt& prompt, std::uint64_t request) {
    return body_of(prompt, request);
  };
  return plan;
}

// A body that cannot be made (an image file gone mid-run, the server's tokenizer failing) is
// that request's failure, carried as a value: the producer neither stops nor crashes, and goes
// on building the requests after it.
TEST(PromptFeed, ABodyThatCannotBeMadeFailsThatRequestAndTheProducerGoesOn) {
  const auto source = random_source();
  bench::testing::WaitCount built;
  FeedPlan plan = plan_for(*source);
  plan.lookahead = 16;
  plan.make_body = [&built](const bench::workload::Prompt& prompt, std::uint64_t request) {
    built.add();
    if (request == 6 || request == 9) throw std::runtime_error("images[0]: a.png cannot be read");
    return body_of(prompt, request);
  };
  PromptFeed feed(plan);
  // The producer builds the whole look-ahead, past both failures, before anything is taken.
  ASSERT_TRUE(built.wait_for_at_least(16, std::chrono::seconds(10)));
  for (std::uint64_t request = 0; request < 16; ++request) {
    const PreparedRequest taken = feed.take();
    ASSERT_EQ(taken.request, request);
    EXPECT_EQ(taken.input_len, 16) << "its lengths are known: the prompt was made";
    EXPECT_EQ(taken.output_len, 4);
    if (request == 6 || request == 9) {
      EXPECT_FALSE(taken.built());
      EXPECT_EQ(taken.error, "images[0]: a.png cannot be read");
      EXPECT_TRUE(taken.body.empty());
    } else {
      EXPECT_TRUE(taken.built()) << request;
      EXPECT_EQ(taken.body, body_of(source->prompt(prompt_index(0, request))));
    }
  }
  EXPECT_EQ(feed.built_by_caller(), 0u);
}

// The caller, building a request the producer has not reached, makes the same value: the event
// loop never meets the exception either.
TEST(PromptFeed, ABodyTheCallerCannotMakeIsAFailedRequestNotAThrow) {
  const auto source = random_source();
  const std::thread::id caller = std::this_thread::get_id();
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  FeedPlan plan = plan_for(*source);
  plan.lookahead = 2;
  // The producer is stuck inside its first build until the end of the test.
  plan.make_body = [caller, released](const bench::workload::Prompt& prompt,
                                      std::uint64_t request) {
    if (std::this_thread::get_id() != caller) released.wait();
    if (request == 1) throw std::runtime_error("tokenize: HTTP 500");
    return body_of(prompt, request);
  };
  PromptFeed feed(plan);
  EXPECT_TRUE(feed.take().built());
  PreparedRequest failed;
  EXPECT_NO_THROW(failed = feed.take());
  EXPECT_EQ(failed.request, 1u);
  EXPECT_EQ(failed.error, "tokenize: HTTP 500");
  EXPECT_TRUE(feed.take().built());
  release.set_value();
}

TEST(PromptFeed, GivesTheFeedsRequestsInOrderWithTheirStreamsPrompts) {
  const auto source = random_source();
  FeedPlan plan = plan_for(*source);
  plan.prompts.stream = 3;
  plan.first = 1;
  plan.stride = 2;
  plan.lookahead = 4;
  PromptFeed feed(plan);
  for (std::uint64_t request = 1; request < 41; request += 2) {
    EXPECT_EQ(feed.next_request(), request);  // what the driver schedules by
    const PreparedRequest taken = feed.take();
    ASSERT_EQ(taken.request, request);
    const auto prompt = source->prompt(prompt_index(3, request));
    EXPECT_EQ(taken.body, body_of(prompt));
    EXPECT_EQ(taken.input_len, 16);
    EXPECT_EQ(taken.output_len, 4);
  }
}

TEST(PromptFeed, ReusedPromptsRepeatStreamZerosFirstOnes) {
  const auto source = random_source();
  FeedPlan plan = plan_for(*source);
  plan.prompts.stream = 5;
  plan.prompts.reuse_modulo = 3;
  PromptFeed feed(plan);
  for (std::uint64_t request = 0; request < 9; ++request) {
    EXPECT_EQ(feed.take().body, body_of(source->prompt(prompt_index(0, request % 3))));
  }
}

TEST(PromptFeed, NeverWaitsForAProducerThatIsBehind) {
  const auto source = random_source();
  const std::thread::id caller = std::this_thread::get_id();
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  FeedPlan plan = plan_for(*source);
  // The producer is stuck inside its first build until the test lets it go.
  plan.make_body = [caller, released](const bench::workload::Prompt& prompt, std::uint64_t) {
    if (std::this_thread::get_id() != caller) released.wait();
    return body_of(prompt);
  };
  plan.lookahead = 2;
  PromptFeed feed(plan);
  for (std::uint64_t request = 0; request < 5; ++request) {
    EXPECT_EQ(feed.take().body, body_of(source->prompt(prompt_index(0, request))));
  }
  // All five built here; the first two (the opening look-ahead) are not counted as late.
  EXPECT_EQ(feed.built_by_caller(), 3u);
  release.set_value();
  // What the producer built for requests the caller already sent is dropped: order holds.
  for (std::uint64_t request = 5; request < 50; ++request) {
    EXPECT_EQ(feed.take().request, request);
  }
}

TEST(PromptFeed, BuildsNoMoreThanItsLookaheadBeforeRequestsAreTaken) {
  const auto source = random_source();
  bench::testing::WaitCount built;
  FeedPlan plan = plan_for(*source);
  plan.lookahead = 8;
  plan.make_body = [&built](const bench::workload::Prompt& prompt, std::uint64_t) {
    built.add();
    return body_of(prompt);
  };
  PromptFeed feed(plan);
  ASSERT_TRUE(built.wait_for_at_least(8, std::chrono::seconds(10)));
  // A ninth body would come as soon as the eighth (woken at once if it does, else 50 ms).
  EXPECT_FALSE(built.wait_for_at_least(9, std::chrono::milliseconds(50)));
  EXPECT_EQ(built.value(), 8);
  EXPECT_EQ(feed.take().request, 0u);
  EXPECT_EQ(feed.built_by_caller(), 0u);
}

}  // namespace

namespace {

// Prompts made ahead (prompts_ahead.hpp) end at the point's last request: the producer builds
// none past it, so a prompt that would cost the server a /tokenize is made only when taken, by
// the caller.
TEST(PromptFeed, BuildsNothingAheadPastTheLastRequestMadeAhead) {
  const auto source = random_source();
  bench::testing::WaitCount built;
  std::mutex mutex;
  std::map<std::uint64_t, std::thread::id> builder;
  FeedPlan plan = plan_for(*source);
  plan.lookahead = 16;
  plan.build_ahead_below = 3;
  plan.make_body = [&](const bench::workload::Prompt& prompt, std::uint64_t request) {
    {
      const std::lock_guard<std::mutex> lock(mutex);
      builder[request] = std::this_thread::get_id();
    }
    built.add();
    return body_of(prompt, request);
  };
  PromptFeed feed(plan);
  ASSERT_TRUE(built.wait_for_at_least(3, std::chrono::seconds(10)));
  for (std::uint64_t request = 0; request < 12; ++request) {
    EXPECT_EQ(feed.take().request, request);
  }
  const std::lock_guard<std::mutex> lock(mutex);
  for (std::uint64_t request = 3; request < 12; ++request) {
    EXPECT_EQ(builder.at(request), std::this_thread::get_id()) << request;
  }
}

}  // namespace
