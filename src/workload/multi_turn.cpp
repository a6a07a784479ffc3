#include "bench/workload/multi_turn.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "bench/util/clock.hpp"
#include "bench/util/splitmix64.hpp"
#include "bench/util/text.hpp"

namespace bench::workload {
namespace {

using nlohmann::json;

// A number of seconds in a --think-time value: finite and >= 0.
std::optional<double> seconds_in(std::string_view text) {
  const std::optional<double> value = util::parse_finite_double(util::trim(text));
  if (!value || *value < 0) return std::nullopt;
  return value;
}

std::string not_seconds(std::string_view spec, std::string_view part) {
  return fmt::format(
      "'{}': '{}' is not a number of seconds >= 0 (use S, exp:MEAN or "
      "uniform:A-B)",
      spec, part);
}

// A uniform draw in [0, 1) from 53 bits of the hash.
double unit_draw(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

}  // namespace

std::variant<ThinkTime, std::string> parse_think_time(std::string_view spec) {
  ThinkTime think;
  if (spec.starts_with("exp:")) {
    const std::string_view mean = spec.substr(4);
    const std::optional<double> value = seconds_in(mean);
    if (!value) return not_seconds(spec, mean);
    if (*value <= 0) return fmt::format("'{}': the mean must be above 0", spec);
    think.kind = ThinkTime::Kind::exponential;
    think.a_s = *value;
    return think;
  }
  if (spec.starts_with("uniform:")) {
    const std::string_view range = spec.substr(8);
    const std::size_t dash = range.find('-');
    if (dash == std::string_view::npos) {
      return fmt::format("'{}': expected uniform:A-B, seconds (e.g. uniform:1-3)", spec);
    }
    const std::optional<double> low = seconds_in(range.substr(0, dash));
    const std::optional<double> high = seconds_in(range.substr(dash + 1));
    if (!low) return not_seconds(spec, range.substr(0, dash));
    if (!high) return not_seconds(spec, range.substr(dash + 1));
    if (*low > *high) return fmt::format("'{}': A is above B", spec);
    think.kind = ThinkTime::Kind::uniform;
    think.a_s = *low;
    think.b_s = *high;
    return think;
  }
  const std::optional<double> fixed = seconds_in(spec);
  if (!fixed) return not_seconds(spec, spec);
  think.a_s = *fixed;
  return think;
}

std::string think_time_text(const ThinkTime& think) {
  switch (think.kind) {
    case ThinkTime::Kind::exponential: return fmt::format("exp:{:g}", think.a_s);
    case ThinkTime::Kind::uniform: return fmt::format("uniform:{:g}-{:g}", think.a_s, think.b_s);
    case ThinkTime::Kind::fixed: break;
  }
  return fmt::format("{:g}", think.a_s);
}

std::int64_t think_time_ns(const ThinkTime& think, std::uint64_t seed, std::uint64_t session,
                           std::uint64_t turn) {
  const std::uint64_t bits = util::splitmix64(util::splitmix64(util::splitmix64(seed) ^ session) ^
                                              (turn * util::kGoldenGamma));
  double seconds = think.a_s;
  if (think.kind == ThinkTime::Kind::exponential) {
    seconds = -think.a_s * std::log1p(-unit_draw(bits));  // inverse CDF; 1 - u is in (0, 1]
  } else if (think.kind == ThinkTime::Kind::uniform) {
    seconds = think.a_s + (think.b_s - think.a_s) * unit_draw(bits);
  }
  return s_to_ns_rounded(seconds);
}

json multi_turn_options_json(const MultiTurnOptions& options) {
  json out = {{"turns", options.turns ? json(*options.turns) : json(nullptr)},
              {"think_time", think_time_text(options.think_time)},
              {"sessions", options.sessions ? json(*options.sessions) : json(nullptr)},
              {"session_header",
               options.session_header.empty() ? json(nullptr) : json(options.session_header)}};
  if (options.agent()) {
    out["tool_result_len"] = *options.tool_result_len;
    out["session_context"] =
        options.session_context ? json(*options.session_context) : json(nullptr);
    // Written only when given, so an agent run without it keeps the record (and the workload
    // fingerprint) it had before the flag existed.
    if (options.fan_out) out["fan_out"] = *options.fan_out;
  }
  return out;
}

std::vector<UserTurn> session_turns(const PromptSource& source, std::uint64_t stream,
                                    std::uint64_t session, std::optional<std::int64_t> turns,
                                    bool conversations) {
  std::vector<UserTurn> out;
  if (conversations) {
    Prompt opening = source.prompt(prompt_index(stream, session));
    const auto cap = static_cast<std::size_t>(turns.value_or(INT64_MAX));
    out.push_back(UserTurn{std::move(opening.text), opening.input_len, opening.output_len, {}});
    for (Prompt::FollowUp& follow_up : opening.follow_ups) {
      if (out.size() >= cap) break;
      out.push_back(
          UserTurn{std::move(follow_up.text), follow_up.input_len, follow_up.output_len, {}});
    }
    return out;
  }
  const auto count = static_cast<std::uint64_t>(std::max<std::int64_t>(1, turns.value_or(1)));
  for (std::uint64_t k = 0; k < count; ++k) {
    Prompt prompt = source.prompt(prompt_index(stream, session * count + k));
    out.push_back(UserTurn{std::move(prompt.text), prompt.input_len - prompt.system_len,
                           prompt.output_len, k == 0 ? std::move(prompt.system_text) : ""});
  }
  return out;
}

}  // namespace bench::workload
