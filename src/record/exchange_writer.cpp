#include "exchange_writer.hpp"

#include <cstdio>
#include <exception>

#include <fmt/format.h>

namespace bench::record {

ExchangeWriter::ExchangeWriter(std::string dir)
    : dir_(std::move(dir)), thread_([this] { run(); }) {}

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

void ExchangeWriter::push(wire::Exchange exchange) {
  {
    const std::lock_guard lock(mutex_);
    queue_.push_back(std::move(exchange));
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
    wire::Exchange exchange = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    bool ok = true;
    try {
      wire::write_exchange(dir_, exchange);
    } catch (const std::exception& error) {
      ok = false;
      fmt::print(stderr, "bench record: error: exchange {} not written: {}\n", exchange.name,
                 error.what());
    }
    lock.lock();
    if (ok) ++written_;
  }
}

}  // namespace bench::record
