#include "bench/cli/values.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/text.hpp"

#include <charconv>
#include <limits>
#include <optional>

#include <fmt/format.h>

namespace bench::cli {

namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t at = text.find(separator);
    parts.push_back(util::trim(text.substr(0, at)));
    if (at == std::string_view::npos) break;
    text.remove_prefix(at + 1);
  }
  return parts;
}

}  // namespace

double parse_duration_s(std::string_view flag, std::string_view text) {
  const std::string_view trimmed = util::trim(text);
  struct Unit {
    std::string_view suffix;
    double seconds;
  };
  // "ms" before "s" and "m": the longest suffix that matches wins.
  constexpr Unit kUnits[] = {{"ms", 1e-3}, {"s", 1}, {"m", 60}, {"h", 3600}};
  double scale = 1;
  std::string_view number = trimmed;
  for (const Unit& unit : kUnits) {
    if (trimmed.size() > unit.suffix.size() && trimmed.ends_with(unit.suffix)) {
      number = trimmed.substr(0, trimmed.size() - unit.suffix.size());
      scale = unit.seconds;
      break;
    }
  }
  const std::optional<double> value = util::parse_finite_double(number);
  if (!value || *value <= 0) {
    throw UsageError(
        fmt::format("{}: '{}' is not a duration (e.g. 90, 90s, 1.5m, 2h, 500ms)", flag, text));
  }
  return *value * scale;
}

std::vector<std::int64_t> parse_count_list(std::string_view flag, std::string_view text,
                                           std::int64_t min, std::int64_t max) {
  std::vector<std::int64_t> values;
  for (std::string_view part : split(text, ',')) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.empty() || error != std::errc() || end != part.data() + part.size() || value < min ||
        value > max) {
      throw UsageError(
          fmt::format("{}: '{}' is not a whole number from {} to {}", flag, part, min, max));
    }
    values.push_back(value);
  }
  return values;
}

std::vector<double> parse_rate_list(std::string_view flag, std::string_view text) {
  std::vector<double> rates;
  for (std::string_view part : split(text, ',')) {
    if (part == "inf" || part == "Inf" || part == "INF") {
      rates.push_back(std::numeric_limits<double>::infinity());
      continue;
    }
    const std::optional<double> rate = util::parse_finite_double(part);
    if (!rate || *rate <= 0) {
      throw UsageError(fmt::format(
          "{}: '{}' is not a request rate (requests per second > 0, or inf)", flag, part));
    }
    rates.push_back(*rate);
  }
  return rates;
}

std::vector<double> parse_share_list(std::string_view flag, std::string_view text) {
  std::vector<double> shares;
  for (std::string_view part : split(text, ',')) {
    const std::optional<double> share = util::parse_finite_double(part);
    if (!share || *share < 0 || *share >= 1) {
      throw UsageError(fmt::format(
          "{}: '{}' is not a share from 0 to below 1 (e.g. 0.5 or 0,0.5,0.9)", flag, part));
    }
    shares.push_back(*share);
  }
  return shares;
}

metrics::Slo parse_goodput(std::string_view flag, const std::vector<std::string>& tokens) {
  metrics::Slo slo;
  for (const std::string& token : tokens) {
    const std::size_t colon = token.find(':');
    const std::string_view name = std::string_view(token).substr(0, colon);
    const std::optional<double> ms =
        colon == std::string::npos
            ? std::nullopt
            : util::parse_finite_double(std::string_view(token).substr(colon + 1));
    if (!ms || *ms <= 0) {
      throw UsageError(fmt::format(
          "{}: '{}' is not NAME:MILLISECONDS (ttft:300, tpot:50 or e2el:2000)", flag, token));
    }
    if (name == "ttft") {
      slo.ttft_ms = *ms;
    } else if (name == "tpot") {
      slo.tpot_ms = *ms;
    } else if (name == "e2el") {
      slo.e2e_ms = *ms;
    } else {
      throw UsageError(
          fmt::format("{}: '{}' is not an objective: use ttft, tpot or e2el (as "
                      "vLLM's --goodput)",
                      flag, name));
    }
  }
  return slo;
}

std::string format_duration(double seconds) {
  if (seconds >= 3600 && std::fmod(seconds, 3600) == 0) return fmt::format("{}h", seconds / 3600);
  if (seconds >= 60 && std::fmod(seconds, 60) == 0) return fmt::format("{}m", seconds / 60);
  if (seconds < 1) return fmt::format("{}ms", s_to_ms(seconds));
  return fmt::format("{}s", seconds);
}

}  // namespace bench::cli
