#pragma once
// The truth log (trace_log.hpp) read back: each line's request as a TraceRecord, with the fields
// that time it (arrival, chunks, end) and its outcome; the batching profile's fields are not read.
#include <string>
#include <variant>
#include <vector>

#include "bench/sim/trace_log.hpp"

namespace bench::sim {

/// Every request of the truth log at `path`, in the order they were written (the order they
/// ended); a message naming the line that is not one, or the file that cannot be read.
std::variant<std::vector<TraceRecord>, std::string> read_trace_log(const std::string& path);

}  // namespace bench::sim
