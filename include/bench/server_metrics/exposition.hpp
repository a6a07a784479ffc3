#pragma once
// A strict, bounded parser of the Prometheus text exposition format, version 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format), as servers
// answer GET /metrics. It reads a whole scrape at once and returns what it found, or one error
// that names the line, never an exception.
//
// Rules followed:
// - lines end at LF (one CR before it is tolerated); blank lines are skipped;
// - '#' starts a comment, except "# HELP name text" (text escapes \\ and \n) and
//   "# TYPE name counter|gauge|histogram|summary|untyped"; at most one of each per name, and a
//   TYPE must come before the first sample of its family;
// - a sample is: name [ '{' label="value" { ',' label="value" } [ ',' ] '}' ] value [ timestamp ]
//   with spaces or tabs between tokens; names match [a-zA-Z_:][a-zA-Z0-9_:]*, label names
//   [a-zA-Z_][a-zA-Z0-9_]*, label values escape only \\, \" and \n; a label appears once;
// - values are floats (Go's ParseFloat spellings without hex), or +Inf, -Inf, NaN; the
//   optional timestamp is an integer of milliseconds since the epoch;
// - samples join the family of the TYPE or HELP line before them when their name is the
//   family's name or the family's name plus a suffix its type allows (counter: _total, _created;
//   histogram: _bucket, _sum, _count, _created; summary: _sum, _count, _created); any other name
//   starts an untyped family of its own. A histogram's _bucket sample needs a numeric `le`
//   label; a summary's own samples need a numeric `quantile` label.
// Counters named with or without `_total` are both common (prometheus_client in Python writes
// `_total`, llama.cpp names its counters `..._total` itself): lookups try both (snapshot.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bench::server_metrics {

enum class MetricType { untyped, counter, gauge, histogram, summary };

std::string_view to_string(MetricType type);

struct Label {
  std::string name;
  std::string value;  // unescaped
};

struct Sample {
  std::string name;  // as written, e.g. "vllm:e2e_request_latency_seconds_bucket"
  std::vector<Label> labels;
  double value = 0;
  std::optional<std::int64_t> timestamp_ms;

  /// The value of label `label_name`, or nullptr when the sample has no such label.
  const std::string* label(std::string_view label_name) const;
};

struct Family {
  std::string name;
  MetricType type = MetricType::untyped;
  std::string help;  // unescaped; empty when no HELP line was given
  std::vector<Sample> samples;
};

struct Exposition {
  std::vector<Family> families;  // in the order they first appear

  /// The family named `name`, or nullptr.
  const Family* family(std::string_view name) const;
  std::size_t sample_count() const;
};

struct Limits {
  std::size_t max_bytes = 8 << 20;         // largest accepted scrape body
  std::size_t max_line_bytes = 64 << 10;   // longest accepted line, terminator excluded
  std::size_t max_samples = 200'000;       // most samples accepted in one scrape
  std::size_t max_labels_per_sample = 64;  // most labels on one sample
};

struct ParseError {
  std::size_t line = 0;  // 1-based; 0 when the error concerns the whole body (its size)
  std::string message;   // one line, printable ASCII only; quotes only validated names

  /// "line 12: expected '=' after label name \"foo\"" (or the message alone for line 0).
  std::string describe() const;
};

struct ParseResult {
  Exposition exposition;            // empty when error is set
  std::optional<ParseError> error;  // set when the body was refused

  bool ok() const { return !error.has_value(); }
};

/// Parses one scrape body. Refuses (with one error) a body beyond the limits or with any line
/// that breaks the rules above; nothing of a refused body is returned.
ParseResult parse_exposition(std::string_view body, const Limits& limits = {});

}  // namespace bench::server_metrics
