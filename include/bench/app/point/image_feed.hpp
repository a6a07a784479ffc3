#pragma once
// Random images made ahead of the turns that send them (--multi-turn with
// --images-per-request). A session's turn body is built on the event loop, since it holds the
// reply that has just ended, but its images do not depend on that reply: a producer thread keeps
// a bounded stock of data URLs, and the loop takes them as turns go out. Only when the stock runs
// dry does the loop make one itself, and that is counted, so the self-check can say the loop did
// work it should not have. Every image is fresh: drawn from the run's nonce and its own number,
// as --images-per-request's are, so no server cache can serve one from another.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/images/image_spec.hpp"

namespace bench::app {

class ImageFeed {
 public:
  /// Starts the producer; it keeps up to `stock` images ready (at least 1).
  ImageFeed(images::ImageSpec spec, std::uint64_t nonce, std::size_t stock);
  ~ImageFeed();  // stops and joins it
  ImageFeed(const ImageFeed&) = delete;
  ImageFeed& operator=(const ImageFeed&) = delete;

  /// `count` images, never waiting: those in stock, and any it lacks made here.
  std::vector<std::string> take(std::size_t count);

  /// Images the caller had to make because the stock was empty, after the first `stock` (which
  /// the producer, started with the feed, may not have made yet). The caller's thread only.
  std::uint64_t made_by_caller() const { return made_by_caller_; }

 private:
  std::string make(std::uint64_t number) const;
  void produce();

  images::ImageSpec spec_;
  std::uint64_t nonce_;
  std::size_t stock_;
  std::mutex mutex_;
  std::condition_variable room_;
  std::deque<std::string> ready_;
  std::uint64_t next_number_ = 0;  // under mutex_: each image's own number, never reused
  bool stopping_ = false;
  std::uint64_t made_by_caller_ = 0;  // the caller's thread only, as taken_
  std::uint64_t taken_ = 0;
  std::thread producer_;  // last: started once everything above is set
};

}  // namespace bench::app
