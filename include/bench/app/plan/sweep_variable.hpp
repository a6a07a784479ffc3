#pragma once
// What a sweep's points differ in, settled once when the run is planned, so no stage compares
// the results' names again.
#include <string>

namespace bench::app {

// prefix_share: --prefix-share's list, the share of each prompt its point's requests share.
enum class SweepVariable { none, concurrency, request_rate, prefix_share };

/// The sweep variable's name in the results ("concurrency", "request_rate", "prefix_share");
/// "" for none.
inline std::string sweep_variable_name(SweepVariable variable) {
  switch (variable) {
    case SweepVariable::concurrency: return "concurrency";
    case SweepVariable::request_rate: return "request_rate";
    case SweepVariable::prefix_share: return "prefix_share";
    case SweepVariable::none: break;
  }
  return "";
}

}  // namespace bench::app
