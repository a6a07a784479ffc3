#include "bench/metrics/figures.hpp"

namespace bench::metrics {

std::string_view figure_name(Figure figure) {
  switch (figure) {
    case Figure::ttft: return "time to first token";
    case Figure::token_gaps: return "gaps between tokens";
    case Figure::output_tokens: return "output tokens";
    case Figure::cached_input: return "cached input tokens";
    case Figure::reasoning: return "reasoning";
    case Figure::tool_calls: return "tool calls";
    case Figure::images: return "images";
  }
  return "unknown";
}

}  // namespace bench::metrics
