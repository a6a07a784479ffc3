#pragma once
// A snapshot as one JSON object on one line: what --live-jsonl appends at each publish and
// GET /api/live answers, for scripts. The same figures as /metrics, with output, input and total
// tokens and their rates apart, latencies in ms, and unknown as null (docs/live-metrics.md).
#include <string>

#include "bench/live/snapshot.hpp"

namespace bench::live {

/// Bumped when a key changes meaning or goes; new keys do not bump it.
inline constexpr int kLiveJsonVersion = 1;

/// The object, without a newline.
std::string json_line(const Snapshot& snapshot);

}  // namespace bench::live
