#include "bench/protocol/context_overflow.hpp"

#include <array>
#include <string>

#include "bench/util/text.hpp"

namespace bench::protocol {
namespace {

// Lower case: the body is lowered before it is searched.
constexpr std::array<std::string_view, 7> kOverflowWords = {
    "maximum context length",                  // vLLM, SGLang, OpenAI's message
    "longer than the model's context length",  // SGLang, vLLM
    "longer than the maximum model length",    // vLLM v1's processor
    "exceeds the maximum allowed length",      // SGLang's scheduler
    "context_length_exceeded",                 // OpenAI's error code
    "exceeds the available context size",      // llama.cpp's server
    "prompt is too long",                      // Anthropic; AIPerf's AgentX check
};

}  // namespace

bool is_context_overflow(std::string_view body) {
  const std::string lowered = util::ascii_lowered(body);
  for (std::string_view words : kOverflowWords) {
    if (lowered.find(words) != std::string::npos) return true;
  }
  return false;
}

}  // namespace bench::protocol
