#pragma once
// Which of a point's prompts are made before its clock starts (point/prompts_ahead.hpp): with
// the server's tokenizer, every request whose number is known before the point runs (an open
// loop's schedule; a closed loop's warm-up and measured count), its shard's share, up to 10,000,
// so that no /tokenize request of bench's own loads the server while it is measured.
#include <cstdint>
#include <memory>
#include <optional>

#include "bench/app/plan/run_plan.hpp"
#include "bench/app/point/prompts_ahead.hpp"
#include "bench/schedule/open_loop.hpp"

namespace bench::app {

/// Prompts a point makes ahead at most (a process's own, with --shard): they are kept until the
/// point ends, so memory stays bounded whatever --num-prompts says.
inline constexpr std::uint64_t kMostPromptsAhead = 10'000;

/// Whether every prompt of every point is made ahead (a count of requests known before each
/// point runs, kMostPromptsAhead at most): bench's default takes the server's /tokenize only
/// then, so that it never loads the server while it is measured.
bool all_prompts_made_ahead(const RunPlan& plan);

struct PromptsMadeAhead {
  std::unique_ptr<PromptsAhead> prompts;
  std::uint64_t requests = 0;  // the point's requests, warm-up included: none past is built ahead
  std::uint64_t tokenize_requests = 0;  // sent to the server to make them
  double seconds = 0;                   // wall time making them took
};

/// The point's prompts made ahead, or nullopt when its lengths need no request to the server
/// (words, a tokenizer file) or its requests are not known before it runs. `planned` is the
/// point's plan; its prompt source is the caller's to swap for the one returned.
std::optional<PromptsMadeAhead> make_prompts_ahead(const RunPlan& plan, const PreparedRun& prepared,
                                                   const PointPlan& planned,
                                                   const schedule::OpenLoopSchedule* schedule);

}  // namespace bench::app
