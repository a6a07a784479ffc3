#include "bench/app/point/image_feed.hpp"

#include <algorithm>
#include <utility>

#include "bench/images/image_parts.hpp"

namespace bench::app {

ImageFeed::ImageFeed(images::ImageSpec spec, std::uint64_t nonce, std::size_t stock)
    : spec_(spec), nonce_(nonce), stock_(std::max<std::size_t>(1, stock)) {
  producer_ = std::thread([this] { produce(); });
}

ImageFeed::~ImageFeed() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  room_.notify_one();
  producer_.join();
}

// Image `number` is drawn as a single request's one image is (images::request_images): one rule
// for what makes an image fresh.
std::string ImageFeed::make(std::uint64_t number) const {
  images::ImageSpec one = spec_;
  one.per_request = 1;
  return std::move(images::request_images(one, nonce_, number).front());
}

std::vector<std::string> ImageFeed::take(std::size_t count) {
  std::vector<std::string> taken;
  std::vector<std::uint64_t> to_make;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    while (taken.size() < count && !ready_.empty()) {
      taken.push_back(std::move(ready_.front()));
      ready_.pop_front();
    }
    while (taken.size() + to_make.size() < count) to_make.push_back(next_number_++);
  }
  room_.notify_one();
  for (const std::uint64_t number : to_make) taken.push_back(make(number));
  // The opening burst may catch the producer just started: only later ones are a sign of it
  // falling behind.
  if (taken_ >= stock_) made_by_caller_ += to_make.size();
  taken_ += count;
  return taken;
}

void ImageFeed::produce() {
  for (;;) {
    std::uint64_t number = 0;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      room_.wait(lock, [this] { return stopping_ || ready_.size() < stock_; });
      if (stopping_) return;
      number = next_number_++;
    }
    std::string image = make(number);  // the costly part, unlocked
    const std::lock_guard<std::mutex> lock(mutex_);
    ready_.push_back(std::move(image));
  }
}

}  // namespace bench::app
