#pragma once
// Every in-flight stream holds a socket, on the client and on the embedded server alike, and the
// usual default soft limit of 1024 descriptors would cap concurrency long before anything else.
#include <cstdint>

namespace bench {

/// Raises RLIMIT_NOFILE's soft limit to at least `needed` (bounded by the hard limit).
/// Returns the soft limit in force afterwards, or -1 when it cannot be read.
std::int64_t raise_open_file_limit(std::int64_t needed);

}  // namespace bench
