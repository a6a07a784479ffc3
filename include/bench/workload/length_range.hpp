#pragma once
// How a random dataset's lengths spread around the lengths asked for: a ratio and its rule, the
// range a length is drawn from. Owned here so the prompts, the context check and the notes read
// one rule.
#include <cstdint>
#include <string_view>

namespace bench::workload {

/// How a range ratio r spreads a length L. around (vLLM's RandomDataset.get_sampling_params,
/// bench's --range-ratio): [floor(L (1 - r)), ceil(L (1 + r))], each end at least 1; vLLM
/// accepts r in [0, 1), bench also r = 1 ([1, 2 L]). below (SGLang's --random-range-ratio,
/// sample_random_requests): [max(int(L r), 1), L], so its default r = 0 draws from [1, L].
enum class RangeRule { around, below };
std::string_view range_rule_name(RangeRule rule);  // "around", "below"

/// The inclusive range a length is drawn from, by `rule` (RangeRule). Throws
/// std::invalid_argument for a ratio outside [0, 1].
struct LengthRange {
  std::int64_t low = 0;
  std::int64_t high = 0;
};
LengthRange length_range(std::int64_t len, double range_ratio, RangeRule rule = RangeRule::around);

}  // namespace bench::workload
