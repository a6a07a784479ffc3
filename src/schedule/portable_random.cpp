#include "bench/schedule/portable_random.hpp"

#include <cmath>
#include <cstdint>

#include "bench/util/splitmix64.hpp"

namespace bench::schedule {

double PortableRandom::uniform_open() {
  constexpr double kCell = 1.0 / 9007199254740992.0;  // 2^-53
  return (static_cast<double>(engine_() >> 11) + 0.5) * kCell;
}

double PortableRandom::exponential() { return -std::log(uniform_open()); }

double PortableRandom::normal() {
  for (;;) {
    const double x = 2.0 * uniform_open() - 1.0;
    const double y = 2.0 * uniform_open() - 1.0;
    const double r2 = x * x + y * y;
    if (r2 >= 1.0 || r2 == 0.0) continue;
    return x * std::sqrt(-2.0 * std::log(r2) / r2);
  }
}

double PortableRandom::gamma(double shape) {
  if (shape == 1.0) return exponential();
  if (shape < 1.0) {
    // Marsaglia and Tsang, section 6: if X ~ Gamma(a + 1) and U ~ U(0,1), X * U^(1/a) ~ Gamma(a).
    const double boost = std::pow(uniform_open(), 1.0 / shape);
    return gamma(shape + 1.0) * boost;
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x = 0.0;
    double v = 0.0;
    do {
      x = normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = uniform_open();
    const double x2 = x * x;
    // The squeeze accepts about 98% of draws without a logarithm; the second test is exact.
    if (u < 1.0 - 0.0331 * x2 * x2) return d * v;
    if (std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v))) return d * v;
  }
}

std::uint64_t mix_seed(std::uint64_t seed) { return util::splitmix64(seed); }

}  // namespace bench::schedule
