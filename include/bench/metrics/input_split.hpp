#pragma once
// The input tokens of a run split into computed (prefilled) and cached: what the servers' prefix
// caches served is not work the server did, so an input tok/s that counts it flatters the server
// (docs/metrics.md, "Input tokens: computed and cached"). A server says it per request
// (RequestRecord's cached_prompt_tokens) or not at all; tokens of requests that did not say stay
// unknown, never 0.
#include <cstdint>
#include <string_view>

#include "bench/metrics/request_record.hpp"

namespace bench::metrics {

/// How many of the counted requests disclosed their prompt's split.
enum class CacheDisclosure {
  none,  // no request did (or there was none): computed and cached are unknown
  some,  // some did: the sums cover only them, the rest is unknown_split_tokens
  all,   // every request did: total == computed + cached
};

std::string_view cache_disclosure_name(CacheDisclosure disclosure);  // "none", "some", "all"

/// Sums over successful measured requests whose prompt_tokens are known; RunAccumulator feeds it.
struct InputTokenSplit {
  std::int64_t requests = 0;              // successful requests with known prompt_tokens
  std::int64_t disclosing_requests = 0;   // of them, those whose cached count is known too
  std::int64_t computed_tokens = 0;       // sum of prompt - cached over disclosing requests
  std::int64_t cached_tokens = 0;         // sum of cached over disclosing requests
  std::int64_t unknown_split_tokens = 0;  // prompt tokens of the requests that did not disclose

  /// Counts one successful request; others, and those without prompt_tokens, are not counted.
  void add(const RequestRecord& record);
  CacheDisclosure disclosure() const;
};

}  // namespace bench::metrics
