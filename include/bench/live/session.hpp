#pragma once
// The live feed of one run (docs/live-metrics.md): the Feed the event loops write to, the
// publisher thread, and what it publishes to: the HTTP listener (--metrics-listen) and the JSONL
// file (--live-jsonl); and the OTLP span exporter (--otlp-endpoint). Opened before anything is
// sent, so a port in use stops the run at once; closed when the run ends, after an optional linger
// that lets a scraper read the final figures.
#include <atomic>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "bench/live/feed.hpp"
#include "bench/live/listener.hpp"
#include "bench/live/options.hpp"
#include "bench/live/otlp.hpp"
#include "bench/live/publisher.hpp"
#include "bench/live/snapshot.hpp"
#include "bench/util/stop_flag.hpp"

namespace bench::live {

class Session {
 public:
  /// Opens the listener and the file; the error (naming the flag) when either cannot be.
  static std::variant<std::unique_ptr<Session>, std::string> open(const LiveOptions& options);
  /// Nothing open yet: open() is the way in.
  explicit Session(const LiveOptions& options);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  Feed& feed() { return feed_; }
  /// The listener's base URL ("http://127.0.0.1:9464"), or "" without one.
  std::string base_url() const;
  void begin_point(const std::string& label) { publisher_->begin_point(label); }
  /// The run has ended: the final snapshot, the last spans posted, then --metrics-linger's wait
  /// (cut short by `stop`). Returns a note for stderr (the spans posted), or "".
  std::string finish(const StopFlag& stop);

 private:
  LiveOptions options_;
  Feed feed_;
  SnapshotBoard board_;
  std::ofstream jsonl_;
  std::unique_ptr<Listener> listener_;
  std::unique_ptr<OtlpExporter> exporter_;
  std::unique_ptr<Publisher> publisher_;  // last: its thread stops first
};

}  // namespace bench::live
