#include "bench/engine/connect_backoff.hpp"

#include <algorithm>

namespace bench::engine {

bool is_connection_failure(metrics::ErrorClass error) {
  return error == metrics::ErrorClass::connect_refused ||
         error == metrics::ErrorClass::connect_timeout || error == metrics::ErrorClass::dns;
}

std::int64_t connect_backoff_ms(int failures, std::int64_t max_ms) {
  if (failures <= 0 || max_ms <= 0) return 0;
  std::int64_t wait_ms = kConnectBackoffFirstMs;
  for (int i = 1; i < failures && wait_ms < max_ms; ++i) wait_ms *= 2;
  return std::min(wait_ms, max_ms);
}

}  // namespace bench::engine
