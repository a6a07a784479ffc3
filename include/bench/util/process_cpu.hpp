#pragma once
// This process's CPUs as the kernel gives them: how many it may run on and how much CPU time it
// has used, for choosing client threads and for the self-check.
#include <cstddef>
#include <cstdint>

namespace bench::util {

/// CPUs this process may run on (sched_getaffinity), at least 1.
std::size_t usable_cores();

/// CPU time of the whole process, all its threads, ns (CLOCK_PROCESS_CPUTIME_ID).
std::int64_t process_cpu_ns();

}  // namespace bench::util
