#pragma once
// Internal to the workload module: a trace file's data rows, one at a time, as each format
// spells them (trace.hpp lists the layouts). The readers check what a row says on its own (a
// column present, a number where one belongs, a timestamp not negative); the order of rows and
// what the replay keeps are TraceFile's business.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/workload/indexed_file.hpp"

namespace bench::workload::detail {

struct TraceRecord {
  std::int64_t time_ns = 0;  // the row's timestamp, ns on the trace's own clock
  std::int64_t input_len = 0;
  std::int64_t output_len = 0;
  std::string_view model;     // burstgpt's Model; empty for the other formats
  std::string_view log_type;  // burstgpt's Log Type
  ItemSpan span;              // where the row lies in the file (line: its 1-based line)
  // mooncake: the id of the prompt's first hash block (rows with the same one share a prefix);
  // nullopt without hash ids.
  std::optional<std::int64_t> first_hash_id;
};

/// Called with each data row in file order; returns false to stop reading.
using TraceRowSink = std::function<bool(const TraceRecord&)>;

/// Mooncake JSON lines (blank lines skipped). Throws DatasetError naming file and line.
void read_mooncake_rows(std::istream& in, const std::string& path, const TraceRowSink& sink);

/// One Mooncake line, checked (an object; a timestamp in ms, not negative; whole-number lengths;
/// a list of whole-number hash_ids): fills `record`'s time and lengths and returns the object.
/// Throws DatasetError naming file and line.
nlohmann::json parse_mooncake_line(std::string_view line, const std::string& path,
                                   std::size_t line_number, TraceRecord& record);

/// A CSV trace: the header row names the columns. Throws DatasetError naming file and line: an
/// empty file, a column missing from the header, a row with fewer fields than the header, a
/// value that is not a number.
void read_azure_rows(std::istream& in, const std::string& path, const TraceRowSink& sink);
void read_burstgpt_rows(std::istream& in, const std::string& path, const TraceRowSink& sink);

/// Nanoseconds since 1970-01-01 of a "YYYY-MM-DD HH:MM:SS[.fraction]" time (a 'T' may stand for
/// the space; up to 9 fraction digits), read as UTC; nullopt when the text is not one.
std::optional<std::int64_t> parse_trace_datetime_ns(std::string_view text);

/// The fields of one CSV line (RFC 4180: commas, fields in double quotes with "" for a quote),
/// each without the spaces around it; nullopt for a quote left open.
std::optional<std::vector<std::string>> split_csv_line(std::string_view line);

}  // namespace bench::workload::detail
