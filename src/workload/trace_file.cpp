#include "bench/workload/trace.hpp"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/util/clock.hpp"
#include "bench/workload/dataset_error.hpp"
#include "dataset_file.hpp"
#include "trace_rows.hpp"

namespace bench::workload {

std::optional<TraceFormat> parse_trace_format(std::string_view name) {
  if (name == "mooncake") return TraceFormat::mooncake;
  if (name == "azure") return TraceFormat::azure;
  if (name == "burstgpt") return TraceFormat::burstgpt;
  if (name == "weka") return TraceFormat::weka;
  return std::nullopt;
}

std::string_view trace_format_name(TraceFormat format) {
  switch (format) {
    case TraceFormat::azure: return "azure";
    case TraceFormat::burstgpt: return "burstgpt";
    case TraceFormat::weka: return "weka";
    case TraceFormat::mooncake: break;
  }
  return "mooncake";
}

namespace {

std::optional<double> seconds_of(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
      !std::isfinite(value) || value < 0) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::optional<TraceWindow> parse_trace_window(std::string_view text) {
  const auto dash = text.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const std::optional<double> start = seconds_of(text.substr(0, dash));
  const std::optional<double> end = seconds_of(text.substr(dash + 1));
  if (!start || !end || !(*start < *end)) return std::nullopt;
  return TraceWindow{*start, *end};
}

nlohmann::json trace_options_json(const TraceOptions& options) {
  auto or_null = [](const std::string& text) {
    return text.empty() ? nlohmann::json() : nlohmann::json(text);
  };
  nlohmann::json out = {
      {"trace_format", std::string(trace_format_name(options.format))},
      {"trace_speed", options.speed},
      {"trace_window", options.window
                           ? nlohmann::json::array({options.window->start_s, options.window->end_s})
                           : nlohmann::json()},
      {"trace_model", or_null(options.model)},
      {"trace_log_type", or_null(options.log_type)}};
  if (options.format == TraceFormat::weka) {
    out["trace_max_gap_s"] = options.max_gap_s;
    out["trace_start"] = options.start_at_random ? "random" : "beginning";
  }
  return out;
}

namespace detail {
namespace {

using nlohmann::json;

constexpr std::string_view kMooncakeBom = "\xEF\xBB\xBF";

bool blank_line(std::string_view line) {
  return line.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos;
}

std::int64_t mooncake_length(const json& row, const char* key, const std::string& path,
                             std::size_t line) {
  const auto found = row.find(key);
  if (found == row.end()) throw DatasetError(path, line, fmt::format("no \"{}\"", key));
  if (!found->is_number_integer() || found->get<std::int64_t>() < 0) {
    throw DatasetError(
        path, line, fmt::format("\"{}\" is {}, not a whole number of tokens", key, found->dump()));
  }
  return found->get<std::int64_t>();
}

}  // namespace

// One Mooncake line, checked: an object with a timestamp (ms, not negative), the two lengths
// and a list of whole-number hash ids.
json parse_mooncake_line(std::string_view line, const std::string& path, std::size_t line_number,
                         TraceRecord& record) {
  json row;
  try {
    row = json::parse(line);
  } catch (const json::parse_error& error) {
    throw DatasetError(path, line_number, "not valid JSON: " + plain_json_error(error.what()));
  }
  if (!row.is_object()) {
    throw DatasetError(path, line_number,
                       std::string("expected a JSON object, got ") + row.type_name());
  }
  const auto stamp = row.find("timestamp");
  if (stamp == row.end()) throw DatasetError(path, line_number, "no \"timestamp\"");
  if (!stamp->is_number()) {
    throw DatasetError(path, line_number,
                       "\"timestamp\" is " + stamp->dump() + ", not a number of milliseconds");
  }
  if (stamp->get<double>() < 0) {
    throw DatasetError(path, line_number, "\"timestamp\" is negative (" + stamp->dump() + ")");
  }
  record.time_ns = ms_to_ns_rounded(stamp->get<double>());
  record.input_len = mooncake_length(row, "input_length", path, line_number);
  record.output_len = mooncake_length(row, "output_length", path, line_number);
  const auto ids = row.find("hash_ids");
  if (ids == row.end()) throw DatasetError(path, line_number, "no \"hash_ids\"");
  bool whole = ids->is_array();
  for (std::size_t i = 0; whole && i < ids->size(); ++i) {
    whole = (*ids)[i].is_number_integer() && (*ids)[i].get<std::int64_t>() >= 0;
  }
  if (!whole) {
    throw DatasetError(path, line_number,
                       "\"hash_ids\" must be a list of whole numbers, got " + ids->dump());
  }
  if (!ids->empty()) record.first_hash_id = ids->front().get<std::int64_t>();
  return row;
}

void read_mooncake_rows(std::istream& in, const std::string& path, const TraceRowSink& sink) {
  std::string line;
  std::uint64_t offset = 0;
  std::size_t line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const std::uint64_t line_offset = offset;
    offset += line.size() + 1;
    std::string_view text(line);
    if (line_number == 1 && text.substr(0, kMooncakeBom.size()) == kMooncakeBom) {
      text.remove_prefix(kMooncakeBom.size());
    }
    if (blank_line(text)) continue;
    TraceRecord record;
    parse_mooncake_line(text, path, line_number, record);
    record.span = ItemSpan{line_offset, static_cast<std::uint32_t>(line.size()),
                           static_cast<std::uint32_t>(line_number)};
    if (!sink(record)) return;
  }
}

}  // namespace detail
}  // namespace bench::workload
