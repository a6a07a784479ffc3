#include "bench/sse/parser.hpp"

#include <cstring>
#include <limits>

namespace bench::sse {

namespace {

constexpr char kBom[] = "\xEF\xBB\xBF";
constexpr std::size_t kBomSize = 3;

// Finds line ends (CR or LF) in one feed with memchr rather than a byte loop. The position of
// the next LF is remembered, so a run of CR-terminated lines does not rescan the rest of the
// feed for an LF once per line: every byte is looked at by at most two memchr calls.
class LineEndFinder {
 public:
  explicit LineEndFinder(std::string_view bytes) : bytes_(bytes) {}

  // Position of the first CR or LF at or after `from`, or npos.
  std::size_t find(std::size_t from) {
    if (!next_lf_known_ || (next_lf_ != std::string_view::npos && next_lf_ < from)) {
      const void* lf = std::memchr(bytes_.data() + from, '\n', bytes_.size() - from);
      next_lf_ = lf ? static_cast<std::size_t>(static_cast<const char*>(lf) - bytes_.data())
                    : std::string_view::npos;
      next_lf_known_ = true;
    }
    const std::size_t limit = next_lf_ == std::string_view::npos ? bytes_.size() : next_lf_;
    const void* cr = std::memchr(bytes_.data() + from, '\r', limit - from);
    if (cr) return static_cast<std::size_t>(static_cast<const char*>(cr) - bytes_.data());
    return next_lf_;
  }

 private:
  std::string_view bytes_;
  std::size_t next_lf_ = std::string_view::npos;
  bool next_lf_known_ = false;
};

// WHATWG: "If the field value consists of only ASCII digits, then interpret the field value as
// an integer in base ten". A value too large for int64 is ignored like any other invalid one.
bool parse_retry(std::string_view value, std::int64_t& milliseconds) {
  if (value.empty()) return false;
  std::int64_t result = 0;
  for (char c : value) {
    if (c < '0' || c > '9') return false;
    const int digit = c - '0';
    if (result > (std::numeric_limits<std::int64_t>::max() - digit) / 10) return false;
    result = result * 10 + digit;
  }
  milliseconds = result;
  return true;
}

}  // namespace

Parser::Parser(Limits limits) : limits_(limits) {}

void Parser::reset() {
  line_.clear();
  data_.clear();
  event_type_.clear();
  last_id_.clear();
  seen_data_field_ = false;
  skip_next_lf_ = false;
  bom_bytes_checked_ = 0;
  bom_done_ = false;
  status_ = Status::ok;
  comments_seen_ = 0;
}

// The BOM is recognised over the first three bytes of the stream, whatever the feed sizes.
// On a mismatch the bytes matched so far were ordinary line bytes (none of them is CR or LF).
// False when the feed is used up while everything so far may still be a BOM, or on an error.
bool Parser::skip_bom(std::string_view bytes, std::size_t& pos) {
  while (pos < bytes.size() && bom_bytes_checked_ < kBomSize &&
         bytes[pos] == kBom[bom_bytes_checked_]) {
    ++bom_bytes_checked_;
    ++pos;
  }
  if (bom_bytes_checked_ == kBomSize) {
    bom_done_ = true;
    return true;
  }
  if (pos == bytes.size()) return false;
  bom_done_ = true;
  if (bom_bytes_checked_ > limits_.max_line_bytes) {
    status_ = Status::line_too_long;
    return false;
  }
  line_.assign(kBom, bom_bytes_checked_);
  return true;
}

Status Parser::feed(std::string_view bytes, Sink& sink) {
  if (status_ != Status::ok) return status_;
  std::size_t pos = 0;
  if (!bom_done_ && !skip_bom(bytes, pos)) return status_;

  LineEndFinder finder(bytes);
  while (pos < bytes.size()) {
    if (skip_next_lf_) {
      // The CR that ended the previous line was already dispatched: this LF completes CRLF.
      skip_next_lf_ = false;
      if (bytes[pos] == '\n') {
        ++pos;
        continue;
      }
    }
    const std::size_t end = finder.find(pos);
    const std::size_t piece_end = end == std::string_view::npos ? bytes.size() : end;
    const std::size_t piece_size = piece_end - pos;
    if (line_.size() + piece_size > limits_.max_line_bytes) return status_ = Status::line_too_long;
    if (end == std::string_view::npos) {
      // An unterminated tail: keep it. append() grows geometrically, so a long line arriving in
      // many small feeds costs O(total), not O(n^2).
      line_.append(bytes.data() + pos, piece_size);
      break;
    }

    std::string_view line;
    if (line_.empty()) {
      line = bytes.substr(pos, piece_size);  // the common case: no copy at all
    } else {
      line_.append(bytes.data() + pos, piece_size);
      line = line_;
    }

    pos = end + 1;
    if (bytes[end] == '\r') {
      if (pos < bytes.size()) {
        if (bytes[pos] == '\n') ++pos;
      } else {
        skip_next_lf_ = true;  // the LF, if any, is in the next feed; do not wait for it
      }
    }

    bool keep_going = true;
    process_line(line, sink, keep_going);
    line_.clear();
    if (status_ != Status::ok) return status_;
    if (!keep_going) return status_ = Status::stopped;
  }
  return status_;
}

bool Parser::finish() {
  const bool partial_bom = !bom_done_ && bom_bytes_checked_ > 0;
  const bool discarded = seen_data_field_ || !line_.empty() || partial_bom;
  line_.clear();
  data_.clear();
  event_type_.clear();
  seen_data_field_ = false;
  skip_next_lf_ = false;
  return discarded;
}

void Parser::process_line(std::string_view line, Sink& sink, bool& keep_going) {
  if (line.empty()) {
    keep_going = dispatch(sink);
    return;
  }
  if (line.front() == ':') {
    ++comments_seen_;
    sink.on_comment(line.substr(1));
    return;
  }

  std::string_view name = line;
  std::string_view value;
  if (const std::size_t colon = line.find(':'); colon != std::string_view::npos) {
    name = line.substr(0, colon);
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }

  if (name == "data") {
    // The cap counts the data as it will be dispatched: lines joined by LF, no final LF.
    if (data_.size() + value.size() > limits_.max_event_bytes) {
      status_ = Status::event_too_big;
      return;
    }
    data_.append(value);
    data_.push_back('\n');
    seen_data_field_ = true;
  } else if (name == "event") {
    event_type_.assign(value);
  } else if (name == "id") {
    if (value.find('\0') == std::string_view::npos) last_id_.assign(value);
  } else if (name == "retry") {
    std::int64_t milliseconds = 0;
    if (parse_retry(value, milliseconds)) sink.on_retry(milliseconds);
  }
  // Any other field name, including a different case of a known one, is ignored.
}

bool Parser::dispatch(Sink& sink) {
  if (!seen_data_field_) {
    // WHATWG: an empty data buffer fires nothing, but the event type buffer still resets.
    event_type_.clear();
    return true;
  }
  Event event;
  event.type = event_type_.empty() ? std::string_view("message") : std::string_view(event_type_);
  event.data = std::string_view(data_).substr(0, data_.size() - 1);  // drop the final LF
  event.last_id = last_id_;
  const bool keep_going = sink.on_event(event);
  data_.clear();
  event_type_.clear();
  seen_data_field_ = false;
  return keep_going;
}

}  // namespace bench::sse
