#include "bench/app/plan/client_threads.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "bench/util/clock.hpp"

namespace bench::app {

namespace {

// The most loops --client-threads accepts (cli/run_flags.cpp).
constexpr std::size_t kMaxLoops = 256;

std::string loops_text(std::size_t loops) {
  return fmt::format("{} event loop{}", loops, loops == 1 ? "" : "s");
}

std::string load_text(double cores) {
  if (!std::isfinite(cores)) {
    return "the server sends without pause: the load is what the loops can take";
  }
  if (cores < 1) return fmt::format("the expected load needs {:.2f} of a core", cores);
  return fmt::format("the expected load needs {:.1f} cores", cores);
}

// Requests started a second: a closed loop restarts each stream when its response ends; an
// open loop's arrivals (its rate, when known), unless the concurrency cap holds them back.
double starts_per_s(const ClientThreadsInput& in, double request_s) {
  const auto streams = static_cast<double>(std::max<std::int64_t>(1, in.concurrency));
  const double capped =
      request_s > 0 ? streams / request_s : std::numeric_limits<double>::infinity();
  return in.rate_per_s > 0 ? std::min(in.rate_per_s, capped) : capped;
}

}  // namespace

ClientThreadsChoice choose_client_threads(const ClientThreadsInput& in) {
  const double gap_ms = in.chunk_gap_ms.value_or(kAssumedChunkGapMs);
  const double request_s =
      ms_to_s(in.first_chunk_ms + std::max(1.0, in.chunks_per_request) * gap_ms);
  const double starts = starts_per_s(in, request_s);
  const double chunks = starts * std::max(1.0, in.chunks_per_request);
  ClientThreadsChoice out;
  out.cores_needed = us_to_s(chunks * in.chunk_cost_us + starts * in.start_cost_us);
  const double wanted = std::ceil(out.cores_needed / kLoopShareOfCore);
  const std::size_t cores_left =
      in.usable_cores > in.server_threads ? in.usable_cores - in.server_threads : 1;
  const auto streams = static_cast<std::size_t>(std::max<std::int64_t>(1, in.concurrency));
  const std::size_t cap = std::min({cores_left, streams, kMaxLoops});
  out.loops = std::isfinite(wanted) && wanted < static_cast<double>(cap)
                  ? std::max<std::size_t>(1, static_cast<std::size_t>(wanted))
                  : cap;
  out.reason = fmt::format("auto: {}, {}", loops_text(out.loops), load_text(out.cores_needed));
  if (out.loops < wanted) {
    if (out.loops == streams && streams < cores_left) {
      out.reason += fmt::format(" (at most one loop a stream: concurrency {})", streams);
    } else if (in.server_threads > 0) {
      out.reason += fmt::format(" ({} usable core{}, {} for the embedded server)", in.usable_cores,
                                in.usable_cores == 1 ? "" : "s", in.server_threads);
    } else {
      out.reason +=
          fmt::format(" ({} usable core{})", in.usable_cores, in.usable_cores == 1 ? "" : "s");
    }
  }
  if (!in.chunk_gap_ms) {
    out.reason += fmt::format(", at an assumed {:g} ms between a stream's chunks", gap_ms);
  }
  return out;
}

std::string explicit_client_threads_reason(std::size_t given, std::size_t loops) {
  return fmt::format("--client-threads {}: {}{}", given, loops_text(loops),
                     loops < given ? " (at most one loop a stream)" : "");
}

}  // namespace bench::app
