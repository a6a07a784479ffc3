#pragma once
// --save-requests: one JSON line per request, streamed to "<path>.partial" as requests end (so
// a long run holds no records in memory) and renamed into place when the run is done. Each line
// is handed to the kernel as it is written, so a run killed by SIGKILL (a CI runner's last word)
// leaves every line written so far in "<path>.partial". A FIFO, device or descriptor is written
// in place (util/atomic_file.hpp). Client threads share one log.
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/metrics/request_record.hpp"
#include "bench/util/atomic_file.hpp"

namespace bench::app {

class RecordLog {
 public:
  /// Throws std::runtime_error naming the path when the temporary file cannot be created.
  explicit RecordLog(const std::string& path) : file_(path, AtomicFileWriter::Temp::partial) {}

  /// Which sweep point the following records belong to (null: not a sweep).
  void set_point(nlohmann::json point);
  /// Never throws (it runs on the engine thread): a write error is kept for commit() to report,
  /// and nothing more is written.
  /// `server`: which --base-url the request went to (0-based).
  void write(const metrics::RequestRecord& record, std::size_t server) noexcept;
  /// Puts the whole file in place. Throws std::runtime_error naming the path when any write
  /// failed or the rename does; no partial file is left then.
  void commit();

 private:
  std::mutex mutex_;
  AtomicFileWriter file_;
  std::string point_;  // the sweep point, written as JSON once; empty: not a sweep
  std::string line_;
  std::string error_;  // the first write error
};

}  // namespace bench::app
