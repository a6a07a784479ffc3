#pragma once
// This process's memory as the kernel counts it, for the progress line and the self-check.
#include <cstdint>
#include <optional>

namespace bench::util {

/// Resident set size now, bytes (/proc/self/statm's resident pages); nullopt where unreadable.
std::optional<std::int64_t> current_rss_bytes();

}  // namespace bench::util
