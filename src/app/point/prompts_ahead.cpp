#include "bench/app/point/prompts_ahead.hpp"

#include <algorithm>
#include <exception>
#include <thread>
#include <utility>

namespace bench::app {

namespace {

using MadePrompts = std::vector<std::pair<std::uint64_t, workload::Prompt>>;

// Every `stride`th of `indices` from `first`, made.
MadePrompts make_share(const workload::PromptSource& source,
                       const std::vector<std::uint64_t>& indices, std::size_t first,
                       std::size_t stride) {
  MadePrompts made;
  for (std::size_t k = first; k < indices.size(); k += stride) {
    try {
      made.emplace_back(indices[k], source.prompt(indices[k]));
    } catch (const std::exception&) {
      // Left to the source: drawn again, it fails that request as a value (prompt_feed.hpp).
    }
  }
  return made;
}

}  // namespace

PromptsAhead::PromptsAhead(const workload::PromptSource& source,
                           const std::vector<std::uint64_t>& indices, std::size_t threads)
    : source_(source) {
  const std::size_t workers =
      std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(1, indices.size()));
  std::vector<MadePrompts> shares(workers);
  {
    std::vector<std::jthread> running;
    for (std::size_t w = 0; w < workers; ++w) {
      running.emplace_back([&, w] { shares[w] = make_share(source_, indices, w, workers); });
    }
  }  // joined
  made_.reserve(indices.size());
  for (MadePrompts& share : shares) {
    for (auto& [index, prompt] : share) made_.emplace(index, std::move(prompt));
  }
}

workload::Prompt PromptsAhead::prompt(std::uint64_t index) const {
  const auto found = made_.find(index);
  return found != made_.end() ? found->second : source_.prompt(index);
}

}  // namespace bench::app
