#pragma once
// The battery's checks of streamed answers: the two paths, usage with and without
// include_usage, cached tokens, reasoning, tool calls. Private to src/app/conform.
#include "conform_check.hpp"

namespace bench::app::conform {

Verdict check_streamed_chat(const ConformServer& server);
Verdict check_streamed_completions(const ConformServer& server);
Verdict check_usage_asked(const ConformServer& server);
Verdict check_usage_unasked(const ConformServer& server);
Verdict check_cached_tokens(const ConformServer& server);
Verdict check_reasoning(const ConformServer& server);
Verdict check_tool_calls(const ConformServer& server);

}  // namespace bench::app::conform
