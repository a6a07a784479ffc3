#include "exchange_writer.hpp"

#include <cstdio>
#include <exception>

#include <fmt/format.h>

namespace bench::record {

ExchangeWriter::ExchangeWriter(std::string dir, WekaTraceRecorder* traces)
    : dir_(std::move(dir)), traces_(traces), thread_([this] { run(); }) {}

ExchangeWriter::~ExchangeWriter() { finish(); }

void ExchangeWriter::finish() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard lock(mutex_);
    closing_ = true;
  }
  ready_.notify_one();
  thread_.join();
}

void ExchangeWriter::push(Relayed relayed) {
  {
    const std::lock_guard lock(mutex_);
    queue_.push_back(std::move(relayed));
  }
  ready_.notify_one();
}

std::uint64_t ExchangeWriter::written() const {
  const std::lock_guard lock(mutex_);
  return written_;
}

void ExchangeWriter::run() {
  std::unique_lock lock(mutex_);
  while (true) {
    ready_.wait(lock, [this] { return closing_ || !queue_.empty(); });
    if (queue_.empty()) return;  // closing, and nothing left to write
    const Relayed relayed = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    bool ok = false;
    if (!dir_.empty()) {
      try {
        wire::write_exchange(dir_, relayed.exchange);
        ok = true;
      } catch (const std::exception& error) {
        fmt::print(stderr, "bench record: error: exchange {} not written: {}\n",
                   relayed.exchange.name, error.what());
      }
    }
    if (traces_ != nullptr) traces_->add(relayed.exchange, relayed.sent_ns, relayed.session);
    lock.lock();
    if (ok) ++written_;
  }
}

}  // namespace bench::record
