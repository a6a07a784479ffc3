#pragma once
// Incremental parser for the WHATWG "text/event-stream" format
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
//
// Feed it body bytes as they arrive, in pieces of any size; it calls the sink for every
// dispatched event, comment and valid retry field. It owns no I/O and takes no timestamps:
// the caller stamps the read once and attributes every event of that read to it.
//
// Rules followed (the spec's steps, in the order they apply):
// - lines end at CRLF, LF or a lone CR; a CRLF split across two feeds is one terminator
//   (a line is dispatched at the CR at once, and an LF right after it is swallowed);
// - one UTF-8 BOM is skipped at the very start of the stream only, even if split;
// - a line starting with ':' is a comment; otherwise the field name ends at the first ':',
//   and exactly one U+0020 after it is removed from the value; a line with no ':' is a
//   field with an empty value;
// - "data" appends value + LF to the data buffer; "event" sets the type (last wins);
//   "id" sets the last event id unless the value contains NUL; "retry" applies only when
//   the value is all ASCII digits; other field names (case-sensitive) are ignored;
// - a blank line dispatches: with empty data nothing fires, but the type resets; one
//   trailing LF is removed from the data;
// - at end of stream an event without its blank line is discarded (finish() reports it).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace bench::sse {

/// One dispatched event. Views are valid only during the sink call.
struct Event {
  std::string_view type;     // "message" when no event field was given
  std::string_view data;     // data lines joined with LF, the final LF removed
  std::string_view last_id;  // the last event id in effect at dispatch
};

/// Receives parser output. Returning false from on_event stops parsing at once: later events in
/// the same feed are not delivered (used to stop a request mid-chunk).
class Sink {
 public:
  virtual ~Sink() = default;
  virtual bool on_event(const Event& event) = 0;
  virtual void on_comment(std::string_view /*text*/) {}
  virtual void on_retry(std::int64_t /*milliseconds*/) {}
};

/// Why feed() or finish() stopped short.
enum class Status {
  ok,             // all bytes consumed
  stopped,        // the sink returned false; the parser must not be fed again
  line_too_long,  // one line exceeded Limits::max_line_bytes
  event_too_big,  // one event's data exceeded Limits::max_event_bytes
};

struct Limits {
  std::size_t max_line_bytes = 1 << 20;   // longest accepted line, terminator excluded
  std::size_t max_event_bytes = 1 << 20;  // largest accepted data buffer of one event
};

class Parser {
 public:
  explicit Parser(Limits limits = {});

  /// Consumes `bytes` and dispatches every complete event in it. After any status other than
  /// ok the parser is spent: further calls return the same status and deliver nothing.
  Status feed(std::string_view bytes, Sink& sink);

  /// Declares end of stream. Returns true when a partial event (a data buffer or line not
  /// terminated by a blank line) was discarded, per the spec; false when the stream ended clean.
  bool finish();

  /// Clears all state (including last event id and BOM detection) for reuse on a new stream.
  void reset();

  std::int64_t comments_seen() const { return comments_seen_; }

 private:
  bool skip_bom(std::string_view bytes, std::size_t& pos);
  void process_line(std::string_view line, Sink& sink, bool& keep_going);
  bool dispatch(Sink& sink);

  Limits limits_;
  std::string line_;                   // bytes of the current, not yet terminated line
  std::string data_;                   // data buffer of the event being built
  std::string event_type_;             // event type buffer of the event being built
  std::string last_id_;                // last event id; persists across events
  bool seen_data_field_ = false;       // a data field appeared since the last dispatch
  bool skip_next_lf_ = false;          // previous byte was CR: an LF now completes CRLF
  std::size_t bom_bytes_checked_ = 0;  // how many of the first 3 bytes matched the BOM
  bool bom_done_ = false;              // BOM detection finished
  Status status_ = Status::ok;
  std::int64_t comments_seen_ = 0;
};

}  // namespace bench::sse
