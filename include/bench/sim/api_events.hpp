#pragma once
// The simulator's seam for an API whose stream is named events rather than chat chunks (the
// Responses API, Anthropic's Messages API): the same simulated answer, token by token at the same
// moments, rendered in that API's events. StreamRenderer holds one when the request came in by
// such an API, and calls it where it would write a chat chunk.
#include <string>
#include <string_view>

#include "bench/sim/stream_format.hpp"

namespace bench::sim {

class ApiEvents {
 public:
  virtual ~ApiEvents() = default;
  /// The events before any token; `start` is the usage known then (the prompt, its cached part).
  virtual void begin(std::string& out, const Usage& start) = 0;
  /// Tokens of each kind, in the order the answer makes them. A tool call's first tokens name
  /// it (`name` not empty).
  virtual void reasoning(std::string& out, std::string_view text) = 0;
  virtual void answer(std::string& out, std::string_view text) = 0;
  virtual void tool_call(std::string& out, std::string_view name, std::string_view arguments) = 0;
  /// The end: `finish_reason` in chat's words; `usage` null = none sent (a fault).
  virtual void finish(std::string& out, std::string_view finish_reason, const Usage* usage) = 0;
};

}  // namespace bench::sim
