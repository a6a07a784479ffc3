#pragma once
// The token rules of one exposition line, shared by the sample and comment readers of
// exposition.cpp: a cursor over the line that reads names, escaped strings and numbers, and
// reports the first thing it could not read as a message (no position arithmetic at call sites).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bench::server_metrics::detail {

/// `name` quoted for an error message, cut to a readable length (names are validated first, so
/// they hold only [a-zA-Z0-9_:]).
std::string quoted_name(std::string_view name);

/// A float as Prometheus writes it: Go's ParseFloat spellings without hex (digits, '.', an
/// exponent, a sign), or Inf/+Inf/-Inf/Infinity/NaN in any case.
std::optional<double> parse_float(std::string_view text);

/// Milliseconds since the epoch: an optional '-' then digits, within int64.
std::optional<std::int64_t> parse_timestamp_ms(std::string_view text);

class LineReader {
 public:
  explicit LineReader(std::string_view line) : line_(line) {}

  bool at_end() const { return pos_ == line_.size(); }
  char peek() const { return at_end() ? '\0' : line_[pos_]; }
  bool consume(char c);
  /// Skips spaces and tabs; returns whether any were skipped.
  bool skip_blanks();

  /// A metric name [a-zA-Z_:][a-zA-Z0-9_:]*; empty when none starts here.
  std::string_view metric_name();
  /// A label name [a-zA-Z_][a-zA-Z0-9_]*; empty when none starts here.
  std::string_view label_name();
  /// Everything up to the next blank or the end of the line.
  std::string_view token();
  /// The rest of the line.
  std::string_view rest();

  /// A label value after its opening quote, up to the closing quote (consumed), unescaping
  /// \\, \" and \n. Sets `error` and returns nullopt on a bad escape or a missing quote.
  std::optional<std::string> quoted_label_value(std::string& error);

 private:
  std::string_view line_;
  std::size_t pos_ = 0;
};

/// HELP text unescaped: \\ and \n only. Sets `error` and returns nullopt on any other escape.
std::optional<std::string> unescape_help(std::string_view text, std::string& error);

}  // namespace bench::server_metrics::detail
