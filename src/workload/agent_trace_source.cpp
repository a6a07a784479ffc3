// --dataset trace --trace-format weka: the recorded agent sessions, kept whole for the session
// scheduler (app/point/trace_tree_scheduler.hpp), which sends each request as its tree reaches
// it. As a PromptSource it answers what the run's checks ask before the first request: the
// longest request, and a prompt (the first request of a tree).
#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "agent_trace_source.hpp"
#include "bench/workload/agent_history.hpp"
#include "bench/workload/prompt_source.hpp"

namespace bench::workload {
namespace {

class AgentTraceSource final : public PromptSource {
 public:
  AgentTraceSource(const DatasetOptions& options, const TokenLengths& tokens)
      : traces_(std::make_shared<const std::vector<AgentTrace>>(read_agent_traces(options.path))),
        seed_(options.seed),
        tokens_(tokens) {
    std::size_t requests = 0;
    std::size_t children = 0;
    std::size_t dropped = 0;
    std::size_t streamed = 0;
    for (const AgentTrace& trace : *traces_) {
      first_turns_.push_back(agent_turns(trace.root, trace.block_size).front());
      requests += trace.requests();
      children += trace.children.size();
      dropped += trace.children_dropped;
      auto add = [&](const AgentScript& agent) {
        for (const AgentRequest& request : agent.requests) {
          longest_.add(request.input_len, request.output_len);
          streamed += request.streamed ? 1 : 0;
        }
      };
      add(trace.root);
      for (const SubAgent& child : trace.children) add(child.script);
    }
    longest_.in_tokens = tokens.tokenizer != nullptr;
    std::ostringstream line;
    line << "trace weka " << options.path << ": " << traces_->size() << " session"
         << (traces_->size() == 1 ? "" : "s") << ", " << requests << " requests (" << streamed
         << " streamed, " << requests - streamed << " not), " << children << " subagents";
    if (dropped > 0)
      line << " (" << dropped << " dropped: no request before them, or none in them)";
    line << ", gaps at most " << options.trace.max_gap_s << " s";
    if (options.trace.speed != 1.0) line << " at " << options.trace.speed << "x speed";
    line << ", lengths in " << (tokens.tokenizer != nullptr ? "tokens" : "words");
    summary_ = line.str();
  }

  Prompt prompt(std::uint64_t index) const override {
    const std::size_t tree = request_of(index) % traces_->size();
    const AgentTrace& trace = (*traces_)[tree];
    AgentReplayText text{seed_, stream_of(index), request_of(index), tokens_};
    AgentPrompt made = agent_prompt(trace, 0, 0, first_turns_[tree], text);
    Prompt prompt;
    prompt.text = made.history.transcript();
    prompt.input_len = made.input_len;
    prompt.output_len = trace.root.requests.front().output_len;
    prompt.client_tokens = made.client_tokens;
    return prompt;
  }
  std::optional<std::uint64_t> distinct_prompts() const override { return std::nullopt; }
  bool shares_prefixes() const override { return true; }
  const std::string& summary() const override { return summary_; }
  std::optional<LongestRequest> longest_request() const override { return longest_; }
  std::shared_ptr<const std::vector<AgentTrace>> agent_traces() const override { return traces_; }

 private:
  static std::uint64_t stream_of(std::uint64_t index) { return index >> kStreamBits; }
  static std::uint64_t request_of(std::uint64_t index) {
    return index & ((std::uint64_t{1} << kStreamBits) - 1);
  }

  std::shared_ptr<const std::vector<AgentTrace>> traces_;
  std::uint64_t seed_;
  TokenLengths tokens_;
  std::string summary_;
  LongestRequest longest_;
  std::vector<std::vector<TurnStart>> first_turns_;  // each trace's first root request's turns
};

}  // namespace

std::unique_ptr<PromptSource> agent_trace_source(const DatasetOptions& options,
                                                 const TokenLengths& tokens) {
  return std::make_unique<AgentTraceSource>(options, tokens);
}

}  // namespace bench::workload
