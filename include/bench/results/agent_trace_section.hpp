#pragma once
// A replayed agent trace in the results (--trace-format weka): the JSON "agent_trace" object
// (keys: results/format.hpp) of a run whose RunSummary has agent_trees, and its definitions;
// whether the run is valid by AgentX's rule. The text and HTML reports word these values
// (report/text_agent_trace.cpp, report/html_agent_trace.cpp). Other runs have none of it, so
// their files and reports are as they were.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/writer.hpp"

namespace bench::results {

/// AgentX's validity rule (SemiAnalysis InferenceX, run through AIPerf): a run is valid only
/// while its context overflows (metrics::ErrorClass::context_overflow) are at most 1% of its
/// responses, here the measured requests that ended (completed + failed; bench's own
/// cancellations are no response).
struct AgentTraceValidity {
  bool valid = false;
  std::int64_t context_overflows = 0;
  std::int64_t responses = 0;
  std::string reason;  // one line: the counts, their share and the rule
};

AgentTraceValidity agent_trace_validity(const metrics::RunSummary& summary);

/// The "agent_trace" object; `summary.agent_trees` must be set.
nlohmann::json agent_trace_json(const metrics::RunSummary& summary, const RunContext& context);

/// The definitions of its figures, added to "definitions" in the files that have it.
nlohmann::json agent_trace_definitions();

}  // namespace bench::results
