#pragma once
// Test support for the live module: records and samples made by hand.
#include <cstdint>
#include <vector>

#include "bench/live/sample.hpp"
#include "bench/metrics/request_record.hpp"

namespace bench::live::testing {

/// A completed measured request: `prompt` input and `output` tokens (from usage), TTFT
/// `ttft_ms`, and `output` text chunks `gap_ms` apart after the first.
inline metrics::RequestRecord completed(std::int64_t prompt, std::int64_t output, double ttft_ms,
                                        double gap_ms) {
  metrics::RequestRecord record;
  record.start_ns = 1'000'000;
  record.first_token_ns = record.start_ns + static_cast<std::int64_t>(ttft_ms * 1e6);
  record.first_answer_ns = record.first_token_ns;
  for (std::int64_t k = 0; k < output; ++k) {
    record.text_chunk_ns.push_back(record.first_token_ns +
                                   k * static_cast<std::int64_t>(gap_ms * 1e6));
  }
  record.end_ns =
      record.text_chunk_ns.empty() ? record.first_token_ns : record.text_chunk_ns.back();
  record.prompt_tokens = prompt;
  record.completion_tokens = output;
  record.prompt_token_source = metrics::TokenSource::usage;
  record.completion_token_source = metrics::TokenSource::usage;
  return record;
}

}  // namespace bench::live::testing
