#include "bench/util/process_cpu.hpp"

#include <sched.h>
#include <time.h>

#include <algorithm>

#include "bench/util/clock.hpp"

namespace bench::util {

std::size_t usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  return static_cast<std::size_t>(std::max(1, CPU_COUNT(&set)));
}

std::int64_t process_cpu_ns() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return timespec_to_ns(now);
}

}  // namespace bench::util
