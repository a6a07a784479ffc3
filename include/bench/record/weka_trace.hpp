#pragma once
// `bench record --weka-trace DIR`: the traffic through the proxy written as traces in the Weka
// format (workload/agent_trace.hpp reads them; `bench --dataset trace --trace-format weka`
// replays them), one file per session, with no text in it: a team can replay its own traffic
// without sharing a word of it. Each completion that ended with status 200 becomes a request:
//   "in", "out"       the response's usage.prompt_tokens and completion_tokens; without usage,
//                     the units counted (prompt_blocks.hpp) and the request says so:
//                     "counted": ["in", "out"] (an extra field; readers ignore it)
//   "hash_ids"        floor(in / block_size) ids: the counted blocks' (prompt_blocks.hpp),
//                     numbered 1, 2, ... in order of first appearance in the session
//                     ("hash_id_scope": "local"); when the server counted more blocks than
//                     the proxy, ids of the request's own follow them; when fewer, the list
//                     is cut: equal leading ids still mean an equal prefix
//   "t", "think_time", "api_time"  seconds: from the session's first request to this one,
//                     from the previous request's response end to this one (0 when it had not
//                     ended), and from the request's last byte to the response's last
//   "type"            "s" when the request asked to stream, else "n"
//   "input_types"     ["tool_result"] when the last message's role is "tool", else ["text"]
//   "stop"            finish_reason: tool_calls -> "tool_use", stop -> "end_turn", length ->
//                     "max_tokens", another as given; none when the response gave none
// A session's "system_tokens" is the units of its first request's leading system messages
// ("tool_tokens" 0: the request's tools are not counted), "block_unit" says whether units are
// "words" or "tokens". Sessions come from session_finder.hpp; subagents cannot be told from
// sessions in general, so no subagent marker is written. Sessions are kept in memory and
// written when the recording ends.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bench/record/prompt_blocks.hpp"
#include "bench/record/session_finder.hpp"
#include "bench/tokenizer/tokenizer.hpp"
#include "bench/wire/recording.hpp"

namespace bench::record {

struct WekaTraceOptions {
  std::string dir;               // where the files go (it must exist)
  std::int64_t block_size = 64;  // units a block, as the public traces have it
  std::shared_ptr<const tokenizer::Tokenizer> tokenizer;  // --tokenizer; null: words
  std::uint64_t salt = 0;  // the recording's secret: random, never written
};

/// What the traces hold, for the recorder's last words.
struct WekaTraceTally {
  std::string unit;  // "words" or "tokens" (prompt_blocks.hpp)
  std::size_t sessions = 0;
  std::size_t requests = 0;
  std::size_t counted = 0;     // requests whose response had no usage: lengths counted in units
  std::size_t reconciled = 0;  // requests whose server count made another number of blocks
  std::size_t left_out = 0;    // exchanges in no trace: not a completion, failed, unreadable
  std::string first_left_out;  // why the first of them was left out
};

class WekaTraceRecorder {
 public:
  explicit WekaTraceRecorder(WekaTraceOptions options);

  /// One finished exchange, sent at `sent_ns` (steady clock), with its session header's value
  /// ("" for none). Exchanges come as their responses end; a session is ordered by send time
  /// when written. Never throws: what becomes no request is counted as left out.
  void add(const wire::Exchange& exchange, std::int64_t sent_ns, std::string_view session_header);

  /// Writes each session's file, session_000001.json, ... in the order of their first
  /// requests, each whole or not at all; returns the tally. Throws std::runtime_error naming a
  /// file it cannot write.
  WekaTraceTally write() const;

 private:
  struct Request {
    std::int64_t sent_ns = 0;
    std::int64_t end_ns = 0;
    bool streamed = false;
    std::string model;
    std::int64_t in = 0;
    std::int64_t out = 0;
    bool in_counted = false;
    bool out_counted = false;
    std::vector<std::uint64_t> blocks;  // the counted blocks' hashes, cut to floor(in / size)
    std::int64_t own_blocks = 0;        // ids of its own after them, to make floor(in / size)
    std::int64_t system_units = 0;
    bool answers_tool = false;
    std::string stop;
    std::vector<std::string> output_types;
  };

  void left_out(std::string why);
  void write_session(const std::vector<Request>& requests, const std::string& id) const;

  WekaTraceOptions options_;
  BlockHasher hasher_;
  SessionFinder finder_;
  std::vector<std::vector<Request>> sessions_;  // by SessionFinder's numbers
  WekaTraceTally tally_;
};

}  // namespace bench::record
