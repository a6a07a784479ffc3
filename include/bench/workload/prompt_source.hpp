#pragma once
// The one seeded source of every request's prompt, by index, on demand. A prompt is a pure
// function of the options and its index: the same whichever prompts were made before it, in
// whatever order, thread or process, so a run is reproducible from its seed and nothing needs
// to be built ahead of the requests or kept after them.
//
// One index space serves a whole invocation: each point of a sweep (and each repeat) takes its
// own stream of it (prompt_index), so no request resends another request's prompt unless the
// workload means it to (shared-prefix groups share their prefix; a file dataset smaller than the
// run repeats its items, and says so). This is what keeps a server's prefix cache from
// flattering input throughput or TTFT unnoticed.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/workload/agent_trace.hpp"
#include "bench/workload/dataset.hpp"
#include "bench/workload/dataset_images.hpp"
#include "bench/workload/longest_request.hpp"
#include "bench/workload/prompt.hpp"
#include "bench/workload/token_prompts.hpp"

namespace bench::workload {

/// Requests of one stream are indices [stream << kStreamBits, (stream + 1) << kStreamBits).
inline constexpr int kStreamBits = 40;

/// The index of request `request` (0-based, warm-up first) of stream `stream`.
constexpr std::uint64_t prompt_index(std::uint64_t stream, std::uint64_t request) {
  return (stream << kStreamBits) | request;
}

class PromptSource {
 public:
  virtual ~PromptSource() = default;

  /// The prompt of request `index`. Safe to call from several threads at once.
  virtual Prompt prompt(std::uint64_t index) const = 0;

  /// How many distinct prompts a stream has before it repeats one (a file's usable items);
  /// nullopt for a generated dataset, whose prompts never repeat.
  virtual std::optional<std::uint64_t> distinct_prompts() const = 0;

  /// True when requests are meant to share a prefix (shared-prefix groups, a Mooncake trace
  /// whose rows repeat a first hash id): cached input tokens are then the point, not a
  /// distortion.
  virtual bool shares_prefixes() const = 0;

  /// One line for stderr: what was loaded or will be generated, and what was dropped.
  virtual const std::string& summary() const = 0;

  /// The dataset's own arrivals (a replayed trace, trace.hpp): request r of every stream is due
  /// (*offsets)[r] ns after the start, and a stream has exactly that many requests. Null when
  /// the run's schedule (--request-rate) decides arrivals.
  virtual std::shared_ptr<const std::vector<std::int64_t>> arrival_offsets_ns() const {
    return nullptr;
  }

  /// The longest request the source can send (longest_request.hpp), known when it was opened:
  /// a file's (sharegpt, jsonl, trace) over its usable items, shared-prefix's from its flags
  /// (in words). nullopt where it is not known before requests are drawn (random datasets:
  /// their flags say it).
  virtual std::optional<LongestRequest> longest_request() const { return std::nullopt; }

  /// The image files its rows name (a jsonl file's "images"), checked when it was opened; none
  /// for every other dataset (--images-per-request's random images are the driver's).
  virtual DatasetImages images() const { return {}; }

  /// --trace-format weka: the recorded agent sessions to replay as session trees (agent_trace.hpp),
  /// in file order; prompt(index) is then the first request of tree index mod their count.
  /// Null for every other dataset.
  virtual std::shared_ptr<const std::vector<AgentTrace>> agent_traces() const { return nullptr; }
};

/// Opens the dataset the options name. `options.count`, when given, is the number of requests
/// of one stream (warm-up included), used for the summary's note on repeats and, for a file
/// dataset, to give each stream its own items while the file lasts. Throws as load_dataset:
/// std::invalid_argument naming the flag, DatasetError naming the file. With a tokenizer in
/// `tokens`, random and random-ids lengths are tokens (token_prompts.hpp), and so are sharegpt's
/// and jsonl's (counted on their text, ShareGPT's filters included) and a trace's
/// (trace_prompts.hpp); shared-prefix keeps words. A trace keeps at most `options.count` rows.
std::unique_ptr<PromptSource> open_prompt_source(const DatasetOptions& options,
                                                 const TokenLengths& tokens = {});

}  // namespace bench::workload
