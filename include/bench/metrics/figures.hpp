#pragma once
// The kinds of figure a run can hold, and a set of them. An endpoint says which it can produce
// (protocol/endpoint.hpp); the results figures say which they need (results/run_metrics.hpp);
// a gate on a figure the endpoint cannot produce is refused before anything is sent, and a
// reader shows such a figure as "none" rather than as a missing measurement.
#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace bench::metrics {

enum class Figure : std::uint8_t {
  ttft,           // time to first token (a streamed token's arrival)
  token_gaps,     // ITL, ICL and TPOT: the gaps between streamed tokens
  output_tokens,  // the count of generated tokens
  cached_input,   // the prompt's split into cached and computed tokens
  reasoning,      // the output's reasoning part, and time to first answer
  tool_calls,     // the output's tool-call part
  images,         // image input parts, and the input's image share
};

inline constexpr Figure kAllFigures[] = {
    Figure::ttft,      Figure::token_gaps, Figure::output_tokens, Figure::cached_input,
    Figure::reasoning, Figure::tool_calls, Figure::images};

/// "time to first token", "reasoning"...: for messages that name what is missing.
std::string_view figure_name(Figure figure);

class FigureSet {
 public:
  constexpr FigureSet() = default;
  constexpr FigureSet(std::initializer_list<Figure> figures) {
    for (const Figure figure : figures) bits_ |= bit(figure);
  }
  constexpr bool has(Figure figure) const { return (bits_ & bit(figure)) != 0; }
  constexpr bool operator==(const FigureSet&) const = default;

 private:
  static constexpr std::uint32_t bit(Figure figure) {
    return std::uint32_t{1} << static_cast<unsigned>(figure);
  }
  std::uint32_t bits_ = 0;
};

}  // namespace bench::metrics
