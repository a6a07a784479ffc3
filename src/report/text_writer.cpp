#include <cmath>

#include "text_writer.hpp"

namespace bench::report::text {

using metrics::Distribution;

std::string fixed2(double value) { return fmt::format("{:.2f}", results::finite_or_zero(value)); }

// Means of lengths: "256" when whole, else one decimal ("312.4").
std::string length(double value) {
  const double rounded = std::round(results::finite_or_zero(value) * 10.0) / 10.0;
  if (rounded == std::floor(rounded)) return fmt::format("{:.0f}", rounded);
  return fmt::format("{:.1f}", rounded);
}

// A mean length that may be unknown (a mean of no values): "n/a", never 0.
std::string length(std::optional<double> value) { return value ? length(*value) : "n/a"; }

// A statistic of `d` to 2 decimals; "n/a" when `d` holds no values, never a 0.00 that reads
// like a measurement.
std::string stat2(const Distribution& d, double Distribution::*field) {
  const std::optional<double> value = metrics::known_stat(d, field);
  return value ? fixed2(*value) : "n/a";
}

// A server's error message on one line: control characters become spaces, long ones are cut.
std::string one_line(std::string_view message) {
  std::string line;
  for (char c : message.substr(0, kMaxSampleChars)) {
    line += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c;
  }
  if (message.size() > kMaxSampleChars) line += "...";
  return line;
}

}  // namespace bench::report::text
