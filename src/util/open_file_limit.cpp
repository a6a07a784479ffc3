#include "bench/util/open_file_limit.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdint>

namespace bench {

std::int64_t raise_open_file_limit(std::int64_t needed) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
  if (limit.rlim_cur != RLIM_INFINITY && static_cast<std::int64_t>(limit.rlim_cur) < needed) {
    rlim_t wanted = static_cast<rlim_t>(needed);
    if (limit.rlim_max != RLIM_INFINITY) wanted = std::min(wanted, limit.rlim_max);
    limit.rlim_cur = wanted;
    setrlimit(RLIMIT_NOFILE, &limit);
    getrlimit(RLIMIT_NOFILE, &limit);
  }
  return limit.rlim_cur == RLIM_INFINITY ? INT64_MAX : static_cast<std::int64_t>(limit.rlim_cur);
}

}  // namespace bench
