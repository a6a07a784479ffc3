#include "bench/workload/message_counts.hpp"

#include <functional>

namespace bench::workload {

std::int64_t MessageCounts::count(std::string_view message, const tokenizer::Tokenizer& tokenizer) {
  const Key key{std::hash<std::string_view>{}(message), message.size(), &tokenizer};
  if (const auto found = counts_.find(key); found != counts_.end()) {
    ++hits_;
    return found->second;
  }
  const auto counted = static_cast<std::int64_t>(tokenizer.count(message));
  if (counts_.size() >= kMaxEntries) counts_.clear();
  counts_.emplace(key, counted);
  return counted;
}

}  // namespace bench::workload
