#pragma once
// What the progress line shows while a run goes on: counters the engine threads bump with
// relaxed atomics (no locks, nothing ordered) and the progress thread reads a few times a second.
#include <atomic>
#include <cstdint>

namespace bench::app {

struct LiveCounters {
  std::atomic<std::int64_t> started{0};        // requests handed to the transport (warm-up too)
  std::atomic<std::int64_t> finished{0};       // requests ended, any outcome
  std::atomic<std::int64_t> failed{0};         // of which failed (not cancelled)
  std::atomic<std::int64_t> text_chunks{0};    // text-carrying chunks received so far
  std::atomic<std::int64_t> output_tokens{0};  // completion tokens of ended requests
  std::atomic<std::int64_t> input_tokens{0};   // prompt tokens of ended requests
};

}  // namespace bench::app
