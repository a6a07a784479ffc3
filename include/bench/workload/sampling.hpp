#pragma once
// The order a file dataset's items are sent in: vLLM and SGLang shuffle a file's items with
// random.shuffle before taking them (vllm/benchmarks/datasets/abstractions.py; SGLang's
// sample_sharegpt_requests).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench::workload {

/// 0, 1, ..., count - 1 in the order of a seeded Fisher-Yates shuffle: the same order for a
/// seed on every platform.
std::vector<std::uint32_t> shuffled_order(std::size_t count, std::uint64_t seed);

}  // namespace bench::workload
