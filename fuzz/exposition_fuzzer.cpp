// libFuzzer target over the Prometheus exposition parser and what reads its output (the name
// maps, the delta of two scrapes, the percentile's bucket), under ASan+UBSan. scripts/fuzz
// builds and runs it beside stream_fuzzer.
//
// Input: one flags byte, then the scrape body.
//   flags bits 0-1: limits (default; 64 B lines; 3 samples; 1 label per sample)
//
// Besides "no crash, no leak, no undefined behaviour", it checks, and aborts on a violation:
// - a refusal is one line of printable ASCII, and returns no families;
// - an accepted body stays within the limits, every histogram bucket has a numeric `le`;
// - the body with every LF written as CRLF parses alike (when it holds no CR of its own);
// - a snapshot's delta with itself is zero in every figure it has, with no notes.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "bench/server_metrics/exposition.hpp"
#include "bench/server_metrics/snapshot.hpp"

namespace {

using bench::server_metrics::Exposition;
using bench::server_metrics::Limits;
using bench::server_metrics::MetricType;
using bench::server_metrics::ParseResult;

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
  std::fprintf(stderr, "exposition_fuzzer: %s\n%.*s\n", what, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

Limits limits_for(std::uint8_t flags) {
  Limits limits;
  switch (flags & 3) {
    case 1: limits.max_line_bytes = 64; break;
    case 2: limits.max_samples = 3; break;
    case 3: limits.max_labels_per_sample = 1; break;
    default: break;
  }
  return limits;
}

void check_refusal(const ParseResult& result) {
  const std::string line = result.error->describe();
  if (line.empty()) fail("an empty error message");
  for (char c : line) {
    if (c < 0x20 || c > 0x7e) fail("an error message that is not one printable line", line);
  }
  if (!result.exposition.families.empty()) fail("a refused body returned families", line);
}

void check_accepted(const Exposition& exposition, const Limits& limits) {
  if (exposition.sample_count() > limits.max_samples) fail("more samples than the limit");
  for (const auto& family : exposition.families) {
    for (const auto& sample : family.samples) {
      if (sample.labels.size() > limits.max_labels_per_sample) fail("more labels than the limit");
      if (family.type == MetricType::histogram && sample.name == family.name + "_bucket" &&
          sample.label("le") == nullptr) {
        fail("a histogram bucket without le", sample.name);
      }
    }
  }
}

void check_crlf_alike(std::string_view body, const Limits& limits, const ParseResult& lf) {
  if (body.find('\r') != std::string_view::npos) return;
  std::string crlf;
  for (char c : body) {
    if (c == '\n') crlf.push_back('\r');
    crlf.push_back(c);
  }
  Limits roomy = limits;
  roomy.max_bytes = crlf.size();
  const ParseResult result = bench::server_metrics::parse_exposition(crlf, roomy);
  if (result.ok() != lf.ok()) fail("CRLF line ends changed whether the body parses");
  if (!lf.ok() && result.error->describe() != lf.error->describe()) {
    fail("CRLF line ends changed the error", result.error->describe());
  }
  if (lf.ok() && result.exposition.sample_count() != lf.exposition.sample_count()) {
    fail("CRLF line ends changed the samples");
  }
}

void check_self_delta(const Exposition& exposition) {
  const auto snapshot = bench::server_metrics::read_snapshot(exposition);
  const auto delta = bench::server_metrics::delta_between(snapshot, snapshot);
  if (!delta.notes.empty()) fail("a snapshot's delta with itself has notes", delta.notes[0]);
  for (const auto& figure : {delta.prompt_tokens, delta.generation_tokens, delta.preemptions,
                             delta.prefix_cache_hit_tokens, delta.requests_succeeded}) {
    // NaN - NaN and Inf - Inf are NaN; every finite counter's growth over itself is 0.
    if (figure && std::isfinite(*figure) && *figure != 0) fail("a counter grew over itself");
  }
  for (const auto& histogram : {snapshot.ttft_seconds, snapshot.e2e_seconds}) {
    if (histogram) {
      for (double p : {0.0, 50.0, 99.0, 100.0}) {
        (void)bench::server_metrics::percentile_range(*histogram, p);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const Limits limits = limits_for(data[0]);
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  const ParseResult result = bench::server_metrics::parse_exposition(body, limits);
  if (!result.ok()) {
    check_refusal(result);
  } else {
    check_accepted(result.exposition, limits);
    check_self_delta(result.exposition);
  }
  check_crlf_alike(body, limits, result);
  return 0;
}
