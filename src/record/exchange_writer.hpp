#pragma once
// Writes finished exchanges on a thread of its own: each file is synced before it is renamed
// into place (util/atomic_file), which takes milliseconds, and the relay must not hold a chunk
// of another connection back that long. Private to src/record.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "bench/wire/recording.hpp"

namespace bench::record {

class ExchangeWriter {
 public:
  explicit ExchangeWriter(std::string dir);
  /// Writes every exchange queued so far, then stops the thread (as finish()).
  ~ExchangeWriter();
  /// Writes every exchange queued so far and stops the thread; push() may not follow.
  void finish();
  ExchangeWriter(const ExchangeWriter&) = delete;
  ExchangeWriter& operator=(const ExchangeWriter&) = delete;

  void push(wire::Exchange exchange);
  /// Exchanges written so far.
  std::uint64_t written() const;

 private:
  void run();

  std::string dir_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<wire::Exchange> queue_;
  bool closing_ = false;
  std::uint64_t written_ = 0;
  std::thread thread_;
};

}  // namespace bench::record
