#pragma once
// vLLM's and SGLang's own result files read as bench results (issue 45): vLLM's --save-result
// object (vllm/benchmarks/serve.py) and SGLang's --output-file line
// (python/sglang/benchmark/serving.py), their figures under bench's keys by the figure
// catalogue's peer columns (latency_figures.hpp: vLLM's and SGLang's "itl" is bench's "icl"),
// so `bench compare` and its --fail-on-regression take them beside bench's own files.
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace bench::results {

/// Which peer wrote a results object: "vllm", "sglang", "aiperf" (its profile_export_aiperf.json);
/// nullopt for bench's own (or anything else, which classify() then refuses as bench's).
std::optional<std::string_view> peer_file_tool(const nlohmann::json& parsed);

/// The peer's object as a bench run: its counts, durations and throughputs under bench's keys,
/// each latency statistic bench keeps under the catalogue's key for the peer's name, "peer_file"
/// naming the tool; nothing bench's own files hold that the peer's does not (no figure made up).
/// nullopt when `parsed` is not a peer's file.
std::optional<nlohmann::json> peer_file_as_results(const nlohmann::json& parsed);

/// A peer whose files bench reads: its id (peer_file_tool's), its name as people write it, and
/// what a reader of its figures under bench's keys must know of its names.
struct PeerFileTool {
  std::string_view id, title, names_note;
};

/// The peer of that id ("vllm", "sglang", "aiperf"); nullptr for any other.
const PeerFileTool* peer_file_tool_info(std::string_view id);

/// The key that says a run was read from a peer's file, and which: "peer_file": "vllm".
inline constexpr std::string_view kPeerFileKey = "peer_file";

}  // namespace bench::results
