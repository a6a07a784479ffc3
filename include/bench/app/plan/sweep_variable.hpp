#pragma once
// What a sweep's points differ in, settled once when the run is planned, so no stage compares
// the results' names again.
#include <string>

namespace bench::app {

enum class SweepVariable { none, concurrency, request_rate };

/// The sweep variable's name in the results ("concurrency", "request_rate"); "" for none.
inline std::string sweep_variable_name(SweepVariable variable) {
  switch (variable) {
    case SweepVariable::concurrency: return "concurrency";
    case SweepVariable::request_rate: return "request_rate";
    case SweepVariable::none: break;
  }
  return "";
}

}  // namespace bench::app
