#pragma once
// Whether a server's refusal says the request did not fit the model's context: counted apart
// from other failures (metrics::ErrorClass::context_overflow), because a run whose prompts
// outgrow the model measures the refusals, not the model. AgentX's validity rule (overflows at
// most 1% of responses) reads this count.
#include <string_view>

namespace bench::protocol {

/// True when `body` (a 4xx response's body, as the server sent it) holds one of the servers'
/// wordings of a context overflow, compared ignoring ASCII case:
///   vLLM:      "This model's maximum context length is N tokens" (the serving layer's check),
///              "... is longer than the maximum model length of N" (the v1 processor's)
///   SGLang:    "is longer than the model's context length", "exceeds the model's maximum
///              context length", "exceeds the maximum allowed length" (the scheduler's input
///              check)
///   OpenAI:    "context_length_exceeded" (the error's code)
///   llama.cpp: "exceeds the available context size"
///   Anthropic: "prompt is too long" (the words AIPerf's AgentX check looks for)
bool is_context_overflow(std::string_view body);

}  // namespace bench::protocol
