#pragma once
// Recorded agent sessions in the Weka trace format (--dataset trace --trace-format weka): one JSON
// object per session, as callanjfox/kv-cache-tester's traces/ hold them and SemiAnalysis'
// AgentX scenario replays them (format: callanjfox/agentic-coding-analysis, docs/TRACE_FORMAT.md).
// A session is a tree: the root agent's requests in order, and subagent markers between them,
// each a child agent with requests of its own (one level deep). A request gives token counts,
// timings and the prompt's blocks as ids, never text:
//   {"t", "type": "s"|"n" (streamed or not), "in" (the whole prompt, tokens), "out",
//    "hash_ids" (floor(in / block_size) ids, one per block: equal leading ids are a shared
//    prefix), "input_types", "stop", "think_time" (seconds from the previous reply's end to
//    this request), "api_time"}
//   {"t" (when it ended), "duration_ms", "type": "subagent", "agent_id", "subagent_type",
//   "tool_tokens", "system_tokens",
//    "requests": [...]}
// The file is read whole (a trace is a session: hundreds of KB at most), checked, and kept as
// counts and ids; prompts are made from the ids when each request is sent (agent_history.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bench::workload {

/// One recorded request of an agent.
struct AgentRequest {
  bool streamed = true;         // "type": "s"; "n" is sent with "stream": false
  std::int64_t input_len = 0;   // "in": the whole prompt, tokens
  std::int64_t output_len = 0;  // "out": max_tokens, sent with ignore-eos
  std::vector<std::int64_t> hash_ids;
  bool answers_tool = false;  // "input_types" holds "tool_result": its new input is a tool's
  double think_time_s = 0;    // from the previous reply's end (or the spawn) to this request
  double api_time_s = 0;      // how long the recorded server took
  double t_s = 0;             // the recorded send time (the session's clock; a child's own)
  // A join (the root request after subagents): from the last of them ending to this request.
  double after_children_s = 0;
};

/// One agent of a session tree: the root, or a subagent.
struct AgentScript {
  std::string agent_id;  // "root", or the marker's "agent_id"
  // The prompt's head every request of the agent starts with: "tool_tokens" + "system_tokens"
  // (Claude Code's tool definitions and system prompt), shared by every agent of its kind.
  std::int64_t head_tokens = 0;
  std::vector<AgentRequest> requests;
};

/// A subagent: spawned after a root request ends, joined by the root request after it.
struct SubAgent {
  AgentScript script;
  std::size_t parent = 0;           // the root request it is spawned from (the one before it)
  std::optional<std::size_t> join;  // the root request that waits for it; none: background
  // Recorded: from the parent's reply's end to the spawn. The marker's "t" is when the subagent
  // ended (t - duration_ms is its spawn), as the public traces show.
  double spawn_gap_s = 0;
};

/// One recorded session.
struct AgentTrace {
  std::string id;    // "id", else the file's name
  std::string path;  // the file it came from
  std::int64_t block_size = 64;
  AgentScript root;
  std::vector<SubAgent> children;     // in the order their markers appear
  std::size_t children_dropped = 0;   // markers with no root request before them (said)
  std::size_t requests() const;       // every request of the tree
  std::size_t largest_group() const;  // the most children one root request waits for (or spawns)
};

/// Every trace a --dataset-path names: a file, or a directory whose *.json files are read in
/// name order. Throws DatasetError naming the file (and the request, as "requests[i]") for a
/// file that is not the format: a missing or mistyped field, hash ids that are not
/// floor(in / block_size) of them, a subagent inside a subagent, no request at all.
std::vector<AgentTrace> read_agent_traces(const std::string& path);

}  // namespace bench::workload
