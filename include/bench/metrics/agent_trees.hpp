#pragma once
// A replayed agent trace's figures (--dataset trace --trace-format weka), beside the run's own:
// the prefix-cache ceiling its blocks allow against what the server's cache served, the session
// trees and their subagents as wholes, and the requests split by agent: root or subagent.
// Records carry their tree (session), agent (branch: 0 the root, k the k-th subagent) and turn.
//
// Memory stays bounded however long the run: a tree's sums are kept only while it is open (the
// lanes bound how many are), and fold into distributions when it ends; the distributions keep
// raw values within the run's SampleBudget and move to histograms beyond it. Only completed
// trees (every request of every agent ended well) are folded: a tree cut short or ended by a
// failure has no end-to-end figure. There is no shard state: --shards is refused with weka
// traces. Standard library only.
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "bench/metrics/latency_distribution.hpp"
#include "bench/metrics/percentile.hpp"
#include "bench/metrics/request_record.hpp"
#include "bench/metrics/sample_budget.hpp"

namespace bench::metrics {

/// The prefix-cache ceiling (RequestRecord::cache_ceiling_tokens: the prompt tokens a request's
/// blocks share with what was sent before, what a server caching whole blocks without limit
/// could serve) beside the server's own count, summed over the measured completed requests that
/// have a ceiling and a known prompt_tokens. The server's count is over those of them whose
/// server disclosed it, with their own prompt and ceiling sums, so its share and the gap compare
/// the same requests.
struct CacheCeiling {
  std::int64_t requests = 0;
  std::int64_t prompt_tokens = 0;
  std::int64_t ceiling_tokens = 0;
  std::int64_t disclosing_requests = 0;  // of `requests`, those whose server said its cached count
  std::int64_t disclosed_prompt_tokens = 0;
  std::int64_t disclosed_ceiling_tokens = 0;
  std::int64_t cached_tokens = 0;  // the server's cached_prompt_tokens, over the disclosing ones

  void add(const RequestRecord& record);
  CacheCeiling& operator+=(const CacheCeiling& other);

  /// ceiling_tokens / prompt_tokens (0..1); nullopt when no prompt token was counted.
  std::optional<double> ceiling_share() const;
  /// cached_tokens / disclosed_prompt_tokens (0..1); nullopt when no request disclosed.
  std::optional<double> cached_share() const;
  /// The ceiling's share less the server's, over the disclosing requests (share points, 0..1:
  /// what the server's cache left unserved of what the blocks allowed); nullopt as cached_share.
  std::optional<double> gap_share() const;
  /// disclosed_ceiling_tokens - cached_tokens; nullopt when no request disclosed.
  std::optional<std::int64_t> gap_tokens() const;
};

/// The measured requests of one kind of agent (the root, or every subagent).
struct AgentRoleFigures {
  std::int64_t requests = 0;       // sent: completed + failed + cancelled
  std::int64_t completed = 0;      // ended without error
  std::int64_t output_tokens = 0;  // completion_tokens of the completed ones whose count is known
  Distribution ttft_ms;            // of the completed ones that streamed a first token
};

struct AgentTreeSummary {
  CacheCeiling cache_ceiling;
  // Completed trees: each tree's successful requests (every agent's), and its output and input
  // tokens over its duration (first send -> last end, as MultiTurnSummary's
  // session_duration_ms), tok/s. A tree whose token counts are not all known has no rate.
  Distribution tree_turns;
  Distribution tree_output_throughput;
  Distribution tree_input_throughput;
  // The subagents of completed trees, each from its first send to its last end.
  Distribution subagent_duration_ms;
  Distribution subagent_turns;
  Distribution subagent_output_throughput;
  AgentRoleFigures root;
  AgentRoleFigures subagents;
};

class AgentTreeAccumulator {
 public:
  /// `budget`: the run's budget of raw values (null: each distribution's default alone).
  explicit AgentTreeAccumulator(std::shared_ptr<SampleBudget> budget = nullptr);

  /// A request as it ends; warm-up requests and those of no tree are ignored.
  void add(const RequestRecord& record);
  /// Tree `session` ended (after its last record): folded when `completed`, dropped either way.
  void end_tree(std::int64_t session, bool completed);
  void merge(AgentTreeAccumulator&& other);
  /// Sorts the kept values in place (adding more afterwards is allowed).
  AgentTreeSummary summarize();

 private:
  // One agent of an open tree: its span and its successful requests' sums.
  struct OpenAgent {
    std::int64_t first_send_ns = -1;
    std::int64_t last_end_ns = -1;
    std::int64_t turns = 0;
    std::int64_t output_tokens = 0;
    std::int64_t input_tokens = 0;
    bool output_known = true;
    bool input_known = true;
    void add(const RequestRecord& record);
  };
  struct Role {
    AgentRoleFigures counts;
    LatencyDistribution ttft_ms;
    void merge(const Role& other);
  };
  LatencyDistribution distribution() const;
  void fold(const std::vector<OpenAgent>& agents);

  std::shared_ptr<SampleBudget> budget_;
  CacheCeiling cache_ceiling_;
  std::unordered_map<std::int64_t, std::vector<OpenAgent>> open_;  // by tree: [branch]
  LatencyDistribution tree_turns_;
  LatencyDistribution tree_output_;
  LatencyDistribution tree_input_;
  LatencyDistribution subagent_ms_;
  LatencyDistribution subagent_turns_;
  LatencyDistribution subagent_output_;
  Role root_;
  Role subagents_;
};

}  // namespace bench::metrics
