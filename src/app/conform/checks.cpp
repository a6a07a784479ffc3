// The battery: one row per check. A new check is a row here and its function.
#include "conform_check.hpp"
#include "error_checks.hpp"
#include "side_route_checks.hpp"
#include "stream_checks.hpp"

namespace bench::app::conform {

std::string_view holds_name(Holds holds) {
  switch (holds) {
    case Holds::holds: return "holds";
    case Holds::fails: return "does not hold";
    case Holds::not_shown: return "not shown";
  }
  return "not shown";
}

const std::vector<Check>& checks() {
  static const std::vector<Check> kChecks = {
      {"streamed chat", "SSE chunks with content deltas, then data: [DONE]", check_streamed_chat},
      {"streamed completions", "SSE chunks with text, then data: [DONE]",
       check_streamed_completions},
      {"usage, asked", "stream_options.include_usage: prompt_tokens and completion_tokens",
       check_usage_asked},
      {"usage, unasked", "without stream_options the stream still ends cleanly",
       check_usage_unasked},
      {"cached tokens", "the same prompt twice: prompt_tokens_details.cached_tokens",
       check_cached_tokens},
      {"reasoning", "reasoning_content or reasoning deltas when the model reasons",
       check_reasoning},
      {"tool calls", "tool_choice required: tool_calls deltas with JSON arguments",
       check_tool_calls},
      {"oversize prompt", "beyond max_model_len: a 4xx with an error body, not a hang or 5xx",
       check_oversize_prompt},
      {"wrong model", "a model not served: 404 or 400 with one error", check_wrong_model},
      {"closed connection", "a stream dropped mid-way; the next request still works",
       check_closed_connection},
      {"/tokenize", "its count plus special tokens equals usage.prompt_tokens", check_tokenize},
      {"/metrics", "Prometheus text with the family's token counters", check_metrics},
  };
  return kChecks;
}

}  // namespace bench::app::conform
