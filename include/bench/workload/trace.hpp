#pragma once
// The "trace" dataset: a public request trace replayed, its arrivals at the trace's own times
// and each request of the trace's lengths. Three layouts, their columns found by header name:
//   mooncake  JSON lines {"timestamp": ms, "input_length": n, "output_length": n,
//             "hash_ids": [ids]} (Mooncake's FAST'25 traces, kvcache-ai/Mooncake
//             FAST25-release/traces): each hash id stands for one block of kTraceBlockTokens
//             prompt tokens, and requests with equal ids at equal positions share that prefix;
//   azure     CSV TIMESTAMP ("2023-11-16 18:15:46.6805900"), ContextTokens, GeneratedTokens
//             (Azure/AzurePublicDataset, AzureLLMInferenceTrace_{code,conv}.csv);
//   burstgpt  CSV Timestamp (s), Model, Request tokens, Response tokens, Total tokens, Log Type
//             (HPMLL/BurstGPT), filtered by model and log type on request.
// The file is read once, row by row, to check it and keep per used row its offset and lengths
// (16 bytes; a mooncake row also its byte range, to read its hash ids back when its request is
// due), never its text. Prompts are made on demand (trace_prompts.hpp).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/workload/indexed_file.hpp"

namespace bench::workload {

/// Mooncake's block: one hash id covers this many prompt tokens (its traces' block size).
inline constexpr std::int64_t kTraceBlockTokens = 512;

// weka: recorded agent sessions, replayed as session trees (agent_trace.hpp), not as rows.
enum class TraceFormat { mooncake, azure, burstgpt, weka };

/// "mooncake", "azure", "burstgpt", "weka"; nullopt for anything else.
std::optional<TraceFormat> parse_trace_format(std::string_view name);
std::string_view trace_format_name(TraceFormat format);

/// --trace-window START-END: the rows at trace seconds [start_s, end_s), counted from the file's
/// first row.
struct TraceWindow {
  double start_s = 0;
  double end_s = 0;
};

/// "60-120" (seconds, decimals allowed, 0 <= start < end); nullopt when it is not one.
std::optional<TraceWindow> parse_trace_window(std::string_view text);

/// The trace's own flags (DatasetOptions::trace).
struct TraceOptions {
  TraceFormat format = TraceFormat::mooncake;  // --trace-format
  double speed = 1.0;                          // --trace-speed: offsets divided by it (> 0)
  std::optional<TraceWindow> window;           // --trace-window; nullopt: the whole trace
  std::string model;                           // --trace-model (burstgpt); empty: every model
  std::string log_type;                        // --trace-log-type (burstgpt); empty: every type
  // --trace-max-gap (weka): the longest wait between a reply and the agent's next request, or a
  // subagent's spawn, before --trace-speed divides it (AIPerf's default: 10 s).
  double max_gap_s = 10.0;
  // --trace-start (weka): where each replay of a trace starts: at a random root request (its
  // previous one sent first as warm-up, carrying the prefix), so a short run measures sessions
  // mid-way as a loaded server sees them; or at the beginning, each trace whole.
  bool start_at_random = true;
};

/// As the results' "config" records them: {"trace_format", "trace_speed", "trace_window"
/// ([start, end] or null), "trace_model", "trace_log_type"} (null when not given).
nlohmann::json trace_options_json(const TraceOptions& options);

/// What the file held and what the replay keeps. Every data row is counted once after `rows`:
/// rows == used + other_model + other_log_type + empty + outside_window + beyond_count.
struct TraceStats {
  std::size_t rows = 0;            // data rows read (rows after the last one used are not)
  std::size_t used = 0;            // replayed
  std::size_t other_model = 0;     // --trace-model left them out
  std::size_t other_log_type = 0;  // --trace-log-type left them out
  std::size_t empty = 0;           // 0 input or 0 output tokens: nothing to send (a failed
                                   // request in BurstGPT)
  std::size_t outside_window = 0;  // before --trace-window's start (rows from its end on are
                                   // not read)
  double first_s = 0;              // the used rows' span, trace seconds from the file's first row
  double last_s = 0;
};

/// One used row.
struct TraceRow {
  std::int64_t input_len = 0;   // tokens, as the trace counts them (words without a tokenizer)
  std::int64_t output_len = 0;  // max_tokens
};

class TraceFile {
 public:
  /// Reads the file at `path`: every row up to the window's end (or the count's last row) is
  /// checked; at most `max_rows` used rows are kept (nullopt: all). Throws DatasetError naming
  /// file and line: a missing column, a value that is not a number, a negative timestamp, a
  /// timestamp before the previous row's; naming the file for an empty one, or one that leaves
  /// no row to replay. std::invalid_argument names the flag for filters the format has not.
  TraceFile(const std::string& path, const TraceOptions& options,
            std::optional<std::size_t> max_rows);

  std::size_t size() const { return rows_.size(); }
  const TraceRow& row(std::size_t row) const { return rows_[row]; }
  /// The row's hash ids (mooncake; read back from the file), empty for the other formats.
  std::vector<std::int64_t> hash_ids(std::size_t row) const;

  /// Each used row's arrival, ns after the replay's start: (t - origin) / speed, t its trace
  /// time and origin the window's start, or the first used row's time. Non-decreasing.
  const std::shared_ptr<const std::vector<std::int64_t>>& offsets_ns() const { return offsets_; }

  const TraceStats& stats() const { return stats_; }
  const std::string& path() const { return path_; }
  /// Whether two replayed rows share a prefix: the same first hash id (mooncake); false for
  /// the formats without hash ids.
  bool shares_prefixes() const { return shares_prefixes_; }

 private:
  void note_first_block(std::optional<std::int64_t> id);

  std::string path_;
  std::vector<TraceRow> rows_;
  std::shared_ptr<const std::vector<std::int64_t>> offsets_;
  std::optional<IndexedFile> lines_;  // mooncake: the used rows' lines
  TraceStats stats_;
  bool shares_prefixes_ = false;
  std::unordered_set<std::int64_t> first_blocks_;  // first hash ids seen, until one repeats
};

}  // namespace bench::workload
