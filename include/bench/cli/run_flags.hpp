#pragma once
// The flags of a benchmark run (`bench [flags]`), bound to RunOptions, and their validation.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench/cli/image_flags.hpp"
#include "bench/cli/multi_turn_flags.hpp"
#include "bench/cli/options.hpp"
#include "bench/cli/peer_flags.hpp"
#include "bench/cli/tool_flags.hpp"

namespace bench::cli {

/// Flag values that need more than CLI11's validators: kept as text until finish_run_flags.
struct RawRunFlags {
  std::string concurrency = "64";
  std::string request_rate = "inf";
  std::string duration;
  std::string warmup_duration;
  std::vector<std::string> goodput;
  std::vector<std::string> fail_under;
  std::vector<std::string> fail_over;
  std::string max_error_rate;
  std::string trace_window;      // --trace-window START-END
  std::string shard;             // --shard I/N (cli/shard_flags.hpp)
  std::int64_t shards = 0;       // --shards N; 0 = not given
  std::string start_at;          // --start-at TIME
  std::string server_weights;    // --server-weights W,... (cli/server_flags.hpp)
  RawMultiTurnFlags multi_turn;  // --think-time, --session-context (cli/multi_turn_flags.hpp)
  RawToolFlags tools;            // --tools, --tool-choice, --response-format (cli/tool_flags.hpp)
  RawImageFlags images;          // --image-size, --image-format (cli/image_flags.hpp)
  std::string prefix_share;      // --prefix-share S[,S...] (cli/prefix_share_flag.hpp)
  RawPeerFlags peer;             // vLLM's and SGLang's flags (cli/peer_flags.hpp)
};

void setup_run_flags(CLI::App& app, RunOptions& run, RawRunFlags& raw);

/// After CLI11 has parsed: converts the raw values into `run` and checks what no single flag's
/// validator can. Throws UsageError naming the flag and the value.
void finish_run_flags(const CLI::App& app, RunOptions& run, const RawRunFlags& raw);

}  // namespace bench::cli
