// The CSV traces: Azure's LLM inference traces and BurstGPT (trace.hpp has their layouts).
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench/util/clock.hpp"
#include "bench/util/text.hpp"
#include "bench/workload/dataset_error.hpp"
#include "trace_rows.hpp"

namespace bench::workload::detail {
namespace {

constexpr std::string_view kCsvBom = "\xEF\xBB\xBF";

constexpr std::string_view kFieldPadding = " \t";  // around a field, and a blank line's

// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t year, unsigned month, unsigned day) {
  year -= month <= 2 ? 1 : 0;
  const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
  const auto year_of_era = static_cast<unsigned>(year - era * 400);
  const unsigned day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const unsigned day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + static_cast<std::int64_t>(day_of_era) - 719468;
}

// `digits` decimal digits at `at` of `text`, or nullopt.
std::optional<unsigned> digits_at(std::string_view text, std::size_t at, std::size_t digits) {
  if (at + digits > text.size()) return std::nullopt;
  unsigned value = 0;
  for (std::size_t i = at; i < at + digits; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + static_cast<unsigned>(text[i] - '0');
  }
  return value;
}

// A field of the CSV header, found by name.
class CsvColumns {
 public:
  CsvColumns(std::vector<std::string> header, const std::string& path, std::size_t line,
             std::string_view format)
      : header_(std::move(header)), path_(path), line_(line), format_(format) {}

  // The index of column `name`; throws naming the file's header line when it has none.
  std::size_t find(std::string_view name, std::string_view needed) const {
    const auto found = std::find(header_.begin(), header_.end(), name);
    if (found != header_.end()) return static_cast<std::size_t>(found - header_.begin());
    std::string seen;
    for (const std::string& column : header_) seen += (seen.empty() ? "" : ", ") + column;
    throw DatasetError(path_, line_,
                       "no column \"" + std::string(name) + "\" in the header (the " +
                           std::string(format_) + " format needs " + std::string(needed) +
                           "; found: " + seen + ")");
  }
  std::size_t size() const { return header_.size(); }

 private:
  std::vector<std::string> header_;
  const std::string& path_;
  std::size_t line_;  // the header's
  std::string_view format_;
};

// Reads the header, then hands each data row's fields to `row` with its span.
template <typename RowFn>
void for_each_csv_row(std::istream& in, const std::string& path, std::string_view format,
                      std::string_view needed, const std::function<void(const CsvColumns&)>& setup,
                      RowFn row) {
  std::string line;
  std::uint64_t offset = 0;
  std::size_t line_number = 0;
  std::optional<CsvColumns> columns;
  while (std::getline(in, line)) {
    ++line_number;
    const std::uint64_t line_offset = offset;
    offset += line.size() + 1;
    std::string_view text(line);
    if (line_number == 1 && text.substr(0, kCsvBom.size()) == kCsvBom) text.remove_prefix(3);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (util::trim(text, kFieldPadding).empty()) continue;
    std::optional<std::vector<std::string>> fields = split_csv_line(text);
    if (!fields) throw DatasetError(path, line_number, "a quoted field is not closed");
    if (!columns) {
      columns.emplace(std::move(*fields), path, line_number, format);
      setup(*columns);
      continue;
    }
    if (fields->size() < columns->size()) {
      throw DatasetError(path, line_number,
                         std::to_string(fields->size()) + " fields, the header has " +
                             std::to_string(columns->size()));
    }
    const ItemSpan span{line_offset, static_cast<std::uint32_t>(line.size()),
                        static_cast<std::uint32_t>(line_number)};
    if (!row(*fields, span)) return;
  }
  if (!columns) {
    throw DatasetError(
        path, 0,
        "empty: expected a CSV header (" + std::string(needed) + ") and one request a row");
  }
}

std::int64_t whole_number(const std::string& field, std::string_view column,
                          const std::string& path, std::size_t line) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size() || field.empty() || value < 0) {
    throw DatasetError(
        path, line,
        "\"" + std::string(column) + "\" is \"" + field + "\", not a whole number of tokens");
  }
  return value;
}

}  // namespace

std::optional<std::vector<std::string>> split_csv_line(std::string_view line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') {
        field += c;
      } else if (i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back(util::trim(field, kFieldPadding));
      field.clear();
    } else {
      field += c;
    }
  }
  if (quoted) return std::nullopt;
  fields.emplace_back(util::trim(field, kFieldPadding));
  return fields;
}

std::optional<std::int64_t> parse_trace_datetime_ns(std::string_view text) {
  // YYYY-MM-DD HH:MM:SS, then an optional fraction.
  const auto year = digits_at(text, 0, 4), month = digits_at(text, 5, 2),
             day = digits_at(text, 8, 2), hour = digits_at(text, 11, 2),
             minute = digits_at(text, 14, 2), second = digits_at(text, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second || text[4] != '-' || text[7] != '-' ||
      (text[10] != ' ' && text[10] != 'T') || text[13] != ':' || text[16] != ':' || *month < 1 ||
      *month > 12 || *day < 1 || *day > 31 || *hour > 23 || *minute > 59 || *second > 60) {
    return std::nullopt;
  }
  std::int64_t fraction_ns = 0;
  std::string_view rest = text.substr(19);
  if (!rest.empty()) {
    if (rest.front() != '.' || rest.size() < 2 || rest.size() > 10) return std::nullopt;
    std::int64_t scale = 100'000'000;
    for (const char c : rest.substr(1)) {
      if (c < '0' || c > '9') return std::nullopt;
      fraction_ns += (c - '0') * scale;
      scale /= 10;
    }
  }
  const std::int64_t days = days_from_civil(*year, *month, *day);
  const std::int64_t seconds = days * 86400 + *hour * 3600 + *minute * 60 + *second;
  return seconds * kNsPerSec + fraction_ns;
}

void read_azure_rows(std::istream& in, const std::string& path, const TraceRowSink& sink) {
  constexpr std::string_view kNeeded = "TIMESTAMP, ContextTokens, GeneratedTokens";
  std::array<std::size_t, 3> at{};
  for_each_csv_row(
      in, path, "azure", kNeeded,
      [&](const CsvColumns& columns) {
        at = {columns.find("TIMESTAMP", kNeeded), columns.find("ContextTokens", kNeeded),
              columns.find("GeneratedTokens", kNeeded)};
      },
      [&](const std::vector<std::string>& fields, const ItemSpan& span) {
        TraceRecord record;
        record.span = span;
        const std::optional<std::int64_t> time = parse_trace_datetime_ns(fields[at[0]]);
        if (!time) {
          throw DatasetError(path, span.line,
                             "\"TIMESTAMP\" is \"" + fields[at[0]] +
                                 "\", not a time like 2023-11-16 18:15:46.6805900");
        }
        record.time_ns = *time;
        record.input_len = whole_number(fields[at[1]], "ContextTokens", path, span.line);
        record.output_len = whole_number(fields[at[2]], "GeneratedTokens", path, span.line);
        return sink(record);
      });
}

void read_burstgpt_rows(std::istream& in, const std::string& path, const TraceRowSink& sink) {
  constexpr std::string_view kNeeded =
      "Timestamp, Model, Request tokens, Response tokens, Total tokens, Log Type";
  std::array<std::size_t, 5> at{};
  for_each_csv_row(
      in, path, "burstgpt", kNeeded,
      [&](const CsvColumns& columns) {
        at = {columns.find("Timestamp", kNeeded), columns.find("Model", kNeeded),
              columns.find("Request tokens", kNeeded), columns.find("Response tokens", kNeeded),
              columns.find("Log Type", kNeeded)};
        columns.find("Total tokens", kNeeded);  // not read, but part of the layout
      },
      [&](const std::vector<std::string>& fields, const ItemSpan& span) {
        const std::string& stamp = fields[at[0]];
        double seconds = 0;
        const auto [end, error] =
            std::from_chars(stamp.data(), stamp.data() + stamp.size(), seconds);
        if (error != std::errc() || end != stamp.data() + stamp.size() || !std::isfinite(seconds)) {
          throw DatasetError(path, span.line,
                             "\"Timestamp\" is \"" + stamp + "\", not a number of seconds");
        }
        if (seconds < 0) {
          throw DatasetError(path, span.line, "\"Timestamp\" is negative (" + stamp + ")");
        }
        TraceRecord record;
        record.span = span;
        record.time_ns = s_to_ns_rounded(seconds);
        record.model = fields[at[1]];
        record.input_len = whole_number(fields[at[2]], "Request tokens", path, span.line);
        record.output_len = whole_number(fields[at[3]], "Response tokens", path, span.line);
        record.log_type = fields[at[4]];
        return sink(record);
      });
}

}  // namespace bench::workload::detail
