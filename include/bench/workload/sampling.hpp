#pragma once
// Turning a dataset's items into exactly the number of requests asked for, the way vLLM does
// (vllm/benchmarks/datasets/abstractions.py, maybe_oversample_requests).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "bench/workload/prompt.hpp"

namespace bench::workload {

/// Exactly `count` prompts: the first `count` when there are more (a dataset shuffled first
/// gives a random subset, as vLLM and SGLang take the first valid items after shuffling);
/// when there are fewer, all of them once, in order, then picks drawn uniformly with
/// replacement from them for the rest (vLLM's oversampling with random.choice). SGLang does
/// not oversample: it sends the fewer items it has. Throws std::invalid_argument when
/// `prompts` is empty and `count` > 0.
std::vector<Prompt> fit_to_count(std::vector<Prompt> prompts, std::size_t count,
                                 std::uint64_t seed);

/// A seeded Fisher-Yates shuffle, the same order for a seed on every platform (vLLM and
/// SGLang shuffle a file's items with random.shuffle before taking them).
void shuffle_prompts(std::vector<Prompt>& prompts, std::uint64_t seed);

}  // namespace bench::workload
