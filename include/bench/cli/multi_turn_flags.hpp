#pragma once
// The flags of a multi-turn run (workload/multi_turn.hpp):
//   --multi-turn            sessions of turns, each sending the whole history so far
//   --turns K               turns per session (sharegpt: a cap on each conversation's own)
//   --think-time SPEC       S | exp:MEAN | uniform:A-B seconds between a reply and the next turn
//   --sessions N            sessions open at once (default: the concurrency)
//   --session-header NAME   a per-session id in this header on every turn (for routers)
//   --tool-result-len N     agent sessions: words of each tool result (workload/agent_session.hpp)
//   --session-context N     agent sessions: end a session once its prompt reached N tokens
#include <string>

#include <CLI/CLI.hpp>

#include "bench/cli/options.hpp"

namespace bench::cli {

/// The flags read as text and converted after parsing.
struct RawMultiTurnFlags {
  std::string think_time;       // --think-time SPEC
  std::string session_context;  // --session-context N[k]
};

void add_multi_turn_flags(CLI::App& app, workload::MultiTurnOptions& multi_turn,
                          RawMultiTurnFlags& raw);

/// After parsing: reads --think-time and --session-context and refuses what a multi-turn run
/// cannot do, before anything is sent. Throws UsageError with one line naming the flag.
void finish_multi_turn_flags(const CLI::App& app, RunOptions& run, const RawMultiTurnFlags& raw);

}  // namespace bench::cli
