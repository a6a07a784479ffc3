#include "bench/app/run/point_prompts.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "bench/app/server/server_tokenizer.hpp"

namespace bench::app {

namespace {

// Exchanges in flight at once while making them: each thread waits on one /tokenize answer.
constexpr std::size_t kMostThreads = 8;

// How many requests the point sends, warm-up included, when known before it runs.
std::optional<std::uint64_t> known_requests(const RunPlan& plan,
                                            const schedule::OpenLoopSchedule* schedule) {
  if (schedule != nullptr) return schedule->size();
  const PointBounds& bounds = plan.bounds;
  if (!bounds.counted() || bounds.warmup_duration_s > 0) return std::nullopt;
  return static_cast<std::uint64_t>(bounds.warmup_requests + bounds.num_prompts);
}

}  // namespace

bool all_prompts_made_ahead(const RunPlan& plan) {
  const std::optional<std::uint64_t> requests = known_requests(plan, nullptr);
  return requests && *requests <= kMostPromptsAhead * plan.shard.count;
}

std::optional<PromptsMadeAhead> make_prompts_ahead(const RunPlan& plan, const PreparedRun& prepared,
                                                   const PointPlan& planned,
                                                   const schedule::OpenLoopSchedule* schedule) {
  const auto* server = dynamic_cast<const ServerTokenizer*>(prepared.tokenizer.get());
  const PromptPick& pick = planned.driver.bodies.prompts;
  if (server == nullptr || pick.source == nullptr || plan.multi_turn.enabled) return std::nullopt;
  const std::optional<std::uint64_t> requests = known_requests(plan, schedule);
  if (!requests) return std::nullopt;
  std::vector<std::uint64_t> indices;
  // Shard I sends requests k with k mod N == I (point_plan).
  const std::uint64_t ahead_end =
      std::min<std::uint64_t>(*requests, kMostPromptsAhead * plan.shard.count);
  for (std::uint64_t k = plan.shard.index; k < ahead_end; k += plan.shard.count) {
    indices.push_back(pick.index_of(k));
  }
  std::sort(indices.begin(), indices.end());  // --reuse-prompts draws one index many times
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  const std::uint64_t sent_before = server->requests_sent();
  const auto start = std::chrono::steady_clock::now();
  const std::size_t threads =
      std::min<std::size_t>(kMostThreads, std::max(1U, std::thread::hardware_concurrency()));
  PromptsMadeAhead ahead;
  ahead.requests = *requests;
  ahead.prompts = std::make_unique<PromptsAhead>(*pick.source, indices, threads);
  ahead.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ahead.tokenize_requests = server->requests_sent() - sent_before;
  return ahead;
}

}  // namespace bench::app
