// Axis ticks at round numbers and their labels: steps of 1, 2 or 5 x 10^k, the "nice numbers"
// of Heckbert's labelling algorithm (Graphics Gems, 1990), so no tick ever reads 2,017.3.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/report/svg_chart.hpp"

namespace bench::report::svg {
namespace {

int decimals_for(double step) {
  if (!(step > 0) || !std::isfinite(step)) return 0;
  return std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
}

double nice_step(double raw) {
  const double exponent = std::floor(std::log10(raw));
  const double magnitude = std::pow(10.0, exponent);
  const double fraction = raw / magnitude;
  double nice = 10;
  if (fraction <= 1 + 1e-9) {
    nice = 1;
  } else if (fraction <= 2 + 1e-9) {
    nice = 2;
  } else if (fraction <= 5 + 1e-9) {
    nice = 5;
  }
  return nice * magnitude;
}

}  // namespace

Ticks linear_ticks(double lo, double hi, int target_count) {
  Ticks ticks;
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
  if (hi < lo) std::swap(lo, hi);
  if (hi - lo <= std::abs(hi) * 1e-12) {
    const double pad = lo == 0 ? 1 : std::abs(lo) * 0.1;
    lo = lo == 0 ? 0 : lo - pad;
    hi = hi + pad;
  }
  ticks.step = nice_step((hi - lo) / std::max(1, target_count));
  const double first = std::floor(lo / ticks.step + 1e-9);
  const double last = std::ceil(hi / ticks.step - 1e-9);
  for (double k = first; k <= last + 0.5; k += 1) {
    const double v = k * ticks.step;
    ticks.values.push_back(std::abs(v) < ticks.step * 1e-9 ? 0.0 : v);
  }
  ticks.lo = ticks.values.front();
  ticks.hi = ticks.values.back();
  return ticks;
}

Ticks log_ticks(double lo, double hi) {
  Ticks ticks;
  if (!(lo > 0) || !std::isfinite(lo)) lo = 1;
  if (!(hi > 0) || !std::isfinite(hi)) hi = lo * 10;
  if (hi < lo) std::swap(lo, hi);
  const int first_decade = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  const int last_decade = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  const bool fine = last_decade - first_decade <= 3;
  std::vector<double> candidates;
  for (int e = first_decade; e <= last_decade + 1; ++e) {
    for (double m : {1.0, 2.0, 5.0}) {
      if (!fine && m != 1.0) continue;
      // 10^e as a literal power, so 0.1 * 2 prints as 0.2 and not 0.20000000000000001.
      candidates.push_back(e >= 0 ? m * std::pow(10.0, e) : m / std::pow(10.0, -e));
    }
  }
  auto below = std::find_if(candidates.rbegin(), candidates.rend(),
                            [&](double c) { return c <= lo * (1 + 1e-9); });
  auto above = std::find_if(candidates.begin(), candidates.end(),
                            [&](double c) { return c >= hi * (1 - 1e-9) && c > lo * (1 + 1e-9); });
  ticks.lo = below != candidates.rend() ? *below : candidates.front();
  ticks.hi = above != candidates.end() ? *above : candidates.back();
  for (double c : candidates) {
    if (c >= ticks.lo * (1 - 1e-9) && c <= ticks.hi * (1 + 1e-9)) ticks.values.push_back(c);
  }
  ticks.step = 0;
  return ticks;
}

std::string group_digits(std::string_view number) {
  const std::size_t begin = (!number.empty() && number[0] == '-') ? 1 : 0;
  const std::size_t int_end = std::min(number.find('.'), number.size());
  std::string out(number.substr(0, begin));
  for (std::size_t i = begin; i < int_end; ++i) {
    if (i > begin && (int_end - i) % 3 == 0) out += ',';
    out += number[i];
  }
  out.append(number.substr(int_end));
  return out;
}

std::string tick_label(double value, double step) {
  if (!std::isfinite(value)) return "";
  step = std::abs(step);
  if (!(step > 0) || !std::isfinite(step)) step = std::abs(value) > 0 ? std::abs(value) : 1;
  if (std::abs(value) < step * 1e-9) return "0";
  if (step >= 5e5 - 1e-3) {
    return fmt::format("{:.{}f}M", value / 1e6, decimals_for(step / 1e6));
  }
  if (step >= 1e3 - 1e-6) {
    return group_digits(fmt::format("{:.{}f}", value / 1e3, decimals_for(step / 1e3))) + "k";
  }
  return group_digits(fmt::format("{:.{}f}", value, decimals_for(step)));
}

}  // namespace bench::report::svg
