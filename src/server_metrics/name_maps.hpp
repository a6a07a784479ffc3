#pragma once
// The metric names each server family writes for the figures a Snapshot holds. Internal to the
// module: snapshot.cpp reads through them.
#include <array>
#include <string_view>

#include "bench/server_metrics/snapshot.hpp"

namespace bench::server_metrics::detail {

/// Names to try, first found wins (current name first, older spellings after); empty = none.
using Names = std::array<std::string_view, 2>;

struct NameMap {
  ServerFamily family;
  std::string_view prefix;
  Names requests_running;
  Names requests_waiting;
  Names kv_cache_usage_ratio;
  Names prefix_cache_hit_ratio;
  // Counters are written with or without `_total`; both are tried (and `_sum` of a histogram,
  // which is how TGI totals its tokens).
  Names prompt_tokens;
  Names generation_tokens;
  Names prefix_cache_hit_tokens;
  Names prefix_cache_query_tokens;
  Names preemptions;
  Names requests_succeeded;
  // Histograms, in seconds.
  Names ttft_seconds;
  Names e2e_seconds;
  Names itl_seconds;         // one observation per token (per engine step in vLLM)
  Names tpot_seconds;        // one per request: its decode time / (its tokens - 1)
  Names queue_time_seconds;  // one per request: its wait before the scheduler took it
  Names spec_draft_tokens;   // counters
  Names spec_accepted_tokens;
  Names spec_accept_length;  // gauges
  Names spec_accept_rate;
};

/// Every known family's map, in detection order.
const std::array<NameMap, 5>& name_maps();

}  // namespace bench::server_metrics::detail
