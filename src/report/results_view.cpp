// Tolerant reads of a results object, and the shared number formats.
#include "results_view.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/report/svg_chart.hpp"
#include "bench/results/format.hpp"
#include "bench/results/run_metrics.hpp"
#include "bench/results/shape.hpp"

namespace bench::report::view {
namespace {

const json* member(const json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto found = object.find(key);
  return found == object.end() ? nullptr : &*found;
}

}  // namespace

std::optional<double> number(const json& object, std::string_view key) {
  // Old files wrote unknown input figures as 0: a run that says its input is unknown has none.
  if (results::needs_input_tokens(key) && !results::input_tokens_known(object)) return {};
  return results::number_at(object, key);
}

std::int64_t count(const json& object, std::string_view key, std::int64_t fallback) {
  const json* value = member(object, key);
  if (value == nullptr || !value->is_number()) return fallback;
  if (value->is_number_integer()) return value->get<std::int64_t>();
  const double d = value->get<double>();
  return std::isfinite(d) ? static_cast<std::int64_t>(std::llround(d)) : fallback;
}

std::string text(const json& object, std::string_view key) {
  const json* value = member(object, key);
  if (value == nullptr || value->is_null()) return "";
  if (value->is_string()) return value->get<std::string>();
  return value->dump(-1, ' ', false, json::error_handler_t::replace);
}

bool flag(const json& object, std::string_view key) {
  const json* value = member(object, key);
  return value != nullptr && value->is_boolean() && value->get<bool>();
}

const json* object_at(const json& object, std::string_view key) {
  const json* value = member(object, key);
  return value != nullptr && value->is_object() ? value : nullptr;
}

const json* array_at(const json& object, std::string_view key) {
  const json* value = member(object, key);
  return value != nullptr && value->is_array() ? value : nullptr;
}

std::vector<std::pair<double, double>> cdf_points(const json& run, std::string_view name) {
  std::vector<std::pair<double, double>> points;
  const json* distributions = object_at(run, "distributions");
  const json* pairs = distributions != nullptr ? array_at(*distributions, name) : nullptr;
  if (pairs == nullptr) return points;
  for (const json& pair : *pairs) {
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number() || !pair[1].is_number()) {
      continue;
    }
    points.emplace_back(pair[0].get<double>(), pair[1].get<double>());
  }
  return points;
}

bool is_sweep(const json& results) {
  return results::is_sweep(results) ||
         (results.is_object() &&
          results.value(results::key::kind, json()) == results::kind_name(results::Kind::search));
}

std::string fixed(std::optional<double> value, int decimals) {
  if (!value || !std::isfinite(*value)) return "-";
  std::string digits = fmt::format("{:.{}f}", *value, decimals);
  if (digits.find_first_not_of("-0.") == std::string::npos && digits[0] == '-') {
    digits.erase(0, 1);  // -0.0 from a tiny negative value
  }
  return svg::group_digits(digits);
}

std::string length(std::optional<double> value) {
  if (!value || !std::isfinite(*value)) return "-";
  const double rounded = std::round(*value * 10.0) / 10.0;
  return fixed(rounded, rounded == std::floor(rounded) ? 0 : 1);
}

std::string grouped(std::int64_t value) { return svg::group_digits(fmt::format("{}", value)); }

std::string value_label(std::optional<double> value) {
  return value ? results::value_label(*value) : "-";
}

std::string cached_share_label(const json& run) {
  const std::optional<double> share = results::known_metric(run, results::key::cached_input_share);
  return share ? fmt::format("{:.1f}%", *share * 100) : std::string("n/a");
}

std::string percent(std::int64_t part, std::int64_t whole) {
  if (whole <= 0) return "0.0%";
  return fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

std::string token_source_label(const json& run, std::string_view kind) {
  const json* sources = object_at(run, "token_count_source");
  if (sources == nullptr) return "not recorded";
  const std::string source = text(*sources, kind);
  // Output, reasoning and tool-call counts come from usage, the tokenizer or chunks; input from
  // usage only.
  const bool output = kind == "output" || kind == "reasoning" || kind == "tool_calls";
  if (source == "usage") return "server usage";
  if (source == "tokenizer") return "counted by the tokenizer (no usage)";
  if (source == "chunks_estimate") return "ESTIMATE from chunk count (no usage)";
  if (source == "unknown") return "UNKNOWN: server sent no prompt_tokens";
  if (source == "none") return "no completed requests";
  if (source == "mixed" && output) {
    std::vector<std::string> parts;
    const std::string from = fmt::format("{}_from_", kind);
    if (const std::int64_t n = count(*sources, from + "usage"); n > 0) {
      parts.push_back(fmt::format("{} requests from usage", n));
    }
    if (const std::int64_t n = count(*sources, from + "tokenizer"); n > 0) {
      parts.push_back(fmt::format("{} counted by the tokenizer", n));
    }
    if (const std::int64_t n = count(*sources, from + "chunks"); n > 0) {
      parts.push_back(fmt::format("{} ESTIMATED from chunks", n));
    }
    return fmt::format("mixed: {}", fmt::join(parts, ", "));
  }
  if (source == "mixed") {
    return fmt::format("mixed: {} requests from usage, {} unknown (input is n/a)",
                       count(*sources, "input_from_usage"), count(*sources, "input_unknown"));
  }
  return source.empty() ? "not recorded" : source;
}

bool output_is_estimate(const json& run) {
  const json* sources = object_at(run, "token_count_source");
  if (sources == nullptr) return false;
  const std::string source = text(*sources, "output");
  // A mix of usage and the tokenizer's counts is counted throughout; one with chunks is not.
  return source == "chunks_estimate" ||
         (source == "mixed" && count(*sources, "output_from_chunks") > 0);
}

}  // namespace bench::report::view
