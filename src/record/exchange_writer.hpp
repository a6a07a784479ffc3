#pragma once
// Writes finished exchanges on a thread of its own: each file is synced before it is renamed
// into place (util/atomic_file), which takes milliseconds, and the relay must not hold a chunk
// of another connection back that long. The Weka traces (--weka-trace) are fed on the same
// thread: reading a response and hashing a prompt's blocks is work the relay must not wait on
// either. Private to src/record.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "bench/record/weka_trace.hpp"
#include "bench/wire/recording.hpp"

namespace bench::record {

/// A finished exchange as the relay hands it over: its recording, and what only the relay knows.
struct Relayed {
  wire::Exchange exchange;
  std::int64_t sent_ns = 0;  // steady clock: when the request's last byte went to the server
  // The value of the first session header (--session-header) the request carried, read before
  // redaction (util's redactor counts a "session" header a credential): compared, never
  // written. Empty: none.
  std::string session;
};

class ExchangeWriter {
 public:
  /// Writes each exchange into `dir` (none when empty) and hands it to `traces` (none when null;
  /// it must outlive the writer).
  explicit ExchangeWriter(std::string dir, WekaTraceRecorder* traces = nullptr);
  /// Writes every exchange queued so far, then stops the thread (as finish()).
  ~ExchangeWriter();
  /// Writes every exchange queued so far and stops the thread; push() may not follow.
  void finish();
  ExchangeWriter(const ExchangeWriter&) = delete;
  ExchangeWriter& operator=(const ExchangeWriter&) = delete;

  void push(Relayed relayed);
  /// Exchanges written into the directory so far.
  std::uint64_t written() const;

 private:
  void run();

  std::string dir_;
  WekaTraceRecorder* traces_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Relayed> queue_;
  bool closing_ = false;
  std::uint64_t written_ = 0;
  std::thread thread_;
};

}  // namespace bench::record
