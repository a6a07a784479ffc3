#include "bench/workload/agent_session.hpp"

#include <fmt/format.h>

#include "bench/util/splitmix64.hpp"
#include "random_text.hpp"

namespace bench::workload {
namespace {

// The purposes of an agent session's draws, apart from the prompts' own.
constexpr std::uint64_t kToolResultStream = 0x746f6f6c73ULL;  // "tools"
constexpr std::uint64_t kFollowUpStream = 0x6e657874ULL;      // "next"

// One item index per (session, turn, call), mixed so that nearby triples draw unrelated words.
std::uint64_t item_of(std::uint64_t session, std::int64_t turn, std::size_t call) {
  return util::splitmix64(
      util::splitmix64(util::splitmix64(session) ^ static_cast<std::uint64_t>(turn)) ^
      static_cast<std::uint64_t>(call));
}

std::string random_words(const AgentTurnText& text, std::uint64_t purpose, std::uint64_t item,
                         std::int64_t words) {
  detail::DrawEngine engine =
      detail::engine_for(detail::stream_seed(text.seed, text.stream), purpose, item);
  std::string out;
  detail::append_random_words(engine, words, out);
  if (!out.empty()) out.erase(0, 1);  // each word comes with a leading space
  return out;
}

}  // namespace

std::uint64_t branch_key(std::uint64_t session, std::size_t branch) {
  if (branch == 0) return session;
  // The top bit set: no branch's key is another session's index.
  return util::splitmix64(session ^ (static_cast<std::uint64_t>(branch) * util::kGoldenGamma)) |
         (std::uint64_t{1} << 63);
}

std::string tool_result_text(const AgentTurnText& text, std::uint64_t session, std::int64_t turn,
                             std::size_t call) {
  return random_words(text, kToolResultStream, item_of(session, turn, call),
                      text.tool_result_words);
}

std::string missing_tool_call_id(std::uint64_t session, std::int64_t turn, std::size_t call) {
  return fmt::format("call-bench-{}-{}-{}", session, turn, call);
}

void name_tool_calls(std::vector<ToolCall>& calls, std::uint64_t session, std::int64_t turn) {
  for (std::size_t k = 0; k < calls.size(); ++k) {
    if (calls[k].id.empty()) calls[k].id = missing_tool_call_id(session, turn, k);
  }
}

void add_agent_turn(Conversation& history, const AgentTurnText& text, std::uint64_t session,
                    std::int64_t turn, const std::function<std::vector<std::string>()>& images) {
  const std::vector<ToolCall> calls = history.pending_tool_calls();  // a copy: history grows
  if (calls.empty()) {
    history.add_user(
        random_words(text, kFollowUpStream, item_of(session, turn, 0), text.follow_up_words),
        images ? images() : std::vector<std::string>{});
    return;
  }
  for (std::size_t k = 0; k < calls.size(); ++k) {
    history.add_tool_result(calls[k].id, tool_result_text(text, session, turn, k));
  }
}

}  // namespace bench::workload
