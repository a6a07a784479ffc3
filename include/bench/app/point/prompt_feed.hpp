#pragma once
// Request bodies made ahead of their send, off the event loop: a producer thread beside each
// engine thread builds the prompts and bodies of the requests that driver will send next, in
// order, up to a bounded look-ahead, so building a long prompt never delays a send or a read,
// and memory holds only the look-ahead, never the run. If the producer ever falls behind, the
// event loop builds the body itself (the same bytes: the prompt source is a pure function of the
// index) and the feed counts it, so the self-check can say so.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "bench/workload/prompt.hpp"
#include "bench/workload/prompt_source.hpp"

namespace bench::app {

/// One request, ready to send.
struct PreparedRequest {
  std::uint64_t request = 0;        // the driver's request number (warm-up first)
  std::string body;                 // the serialized request body
  std::int64_t input_len = 0;       // the prompt's length as the workload counts it (words, or
                                    // tokens with a tokenizer)
  std::int64_t client_tokens = -1;  // its tokens as the tokenizer counted what is sent; -1: none
  std::int64_t output_len = 0;      // max_tokens asked
  std::optional<bool> stream;       // the prompt's own "stream" choice (workload::Prompt)
  // Why its prompt or body could not be made (an image file of the dataset gone since the
  // start, the server's tokenizer failing); empty when it was, else `body` is empty and the
  // request fails unsent. One request's trouble, not the run's: the feed goes on with the next.
  std::string error;
  bool built() const { return error.empty(); }
};

/// Turns a prompt into the body to send; `request` is the driver's request number (what a body
/// that must differ from request to request, such as --images-per-request's, draws from).
using BodyMaker = std::function<std::string(const workload::Prompt&, std::uint64_t request)>;

/// Which prompt each request of a point sends: prompt r of the point's stream, or with
/// --reuse-prompts prompt r mod reuse_modulo of stream 0, what every point resends. The one
/// owner of that rule, carried whole from the point's plan through its driver to the feed.
struct PromptPick {
  const workload::PromptSource* source = nullptr;  // outlives the feed
  std::uint64_t stream = 0;        // the point's (and repeat's) stream of the source
  std::uint64_t reuse_modulo = 0;  // --reuse-prompts (RunPlan::reuse_prompts_modulo); 0: fresh
  /// The source's index of the prompt request `request` sends.
  std::uint64_t index_of(std::uint64_t request) const {
    return reuse_modulo > 0 ? workload::prompt_index(0, request % reuse_modulo)
                            : workload::prompt_index(stream, request);
  }
};

struct FeedPlan {
  PromptPick prompts;
  // The requests this feed serves: first, first + stride, ... (one feed per engine thread).
  std::uint64_t first = 0;
  std::uint64_t stride = 1;
  std::size_t lookahead = 64;  // bodies built ahead at most
  // Requests from this one on are not built ahead: the point's prompts were made before it
  // (prompts_ahead.hpp) up to here, and one built past its last request would cost the server
  // /tokenize requests for nothing. The caller still builds any it takes.
  std::uint64_t build_ahead_below = std::numeric_limits<std::uint64_t>::max();
  // max_tokens of every request in place of each prompt's (--extra-body set it); nullopt: each
  // prompt's own.
  std::optional<std::int64_t> output_len_override;
  // Turns a prompt into the body to send; called on the producer thread (and, when it falls
  // behind, on the caller's), so it must not touch state the event loop changes. What it (or
  // the source's prompt) throws becomes that request's PreparedRequest::error.
  BodyMaker make_body;
};

class PromptFeed {
 public:
  explicit PromptFeed(FeedPlan plan);  // starts the producer
  ~PromptFeed();                       // stops and joins it
  PromptFeed(const PromptFeed&) = delete;
  PromptFeed& operator=(const PromptFeed&) = delete;

  /// The next request of this feed (first, then first + stride, ...). Never waits for the
  /// producer: a request it has not built yet is built here.
  PreparedRequest take();

  /// The request number the next take() returns: the one owner of which request comes next.
  /// The caller's thread only.
  std::uint64_t next_request() const { return request_of(next_to_take_); }

  /// Requests whose body the caller had to build because the producer was behind, after the
  /// first `lookahead` (which the producer, started with the feed, may not have built yet).
  std::uint64_t built_by_caller() const { return built_by_caller_; }

 private:
  PreparedRequest prepare(std::uint64_t ordinal, const BodyMaker& make_body) const;
  std::uint64_t request_of(std::uint64_t ordinal) const;
  void produce();

  FeedPlan plan_;
  std::mutex mutex_;
  std::condition_variable room_;  // the producer waits here for space in ready_
  // Built and not yet taken: ordinals next_to_take_, next_to_take_ + 1, ... (guarded by mutex_).
  std::deque<PreparedRequest> ready_;
  // Ordinal the caller takes next: written by the caller only, under mutex_ (which the
  // producer reads it under), so the caller may read it without the lock.
  std::uint64_t next_to_take_ = 0;
  bool stopping_ = false;              // guarded by mutex_
  std::uint64_t built_by_caller_ = 0;  // the caller's thread only
  // The caller's own copy of plan_.make_body: the two threads never share its state.
  BodyMaker caller_make_body_;
  std::thread producer_;
};

}  // namespace bench::app
