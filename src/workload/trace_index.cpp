// TraceFile: a trace read once, in time order, into what its replay needs (trace.hpp).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bench/util/clock.hpp"
#include "bench/workload/dataset_error.hpp"
#include "bench/workload/trace.hpp"
#include "dataset_file.hpp"
#include "trace_rows.hpp"

namespace bench::workload {
namespace {

void check_trace_options(const TraceOptions& options) {
  if (!(options.speed > 0) || !std::isfinite(options.speed)) {
    throw std::invalid_argument(fmt::format("--trace-speed must be > 0, got {}", options.speed));
  }
  if (options.format != TraceFormat::burstgpt &&
      (!options.model.empty() || !options.log_type.empty())) {
    throw std::invalid_argument(
        fmt::format("--trace-model and --trace-log-type filter BurstGPT's columns; a {} trace "
                    "has no such column",
                    trace_format_name(options.format)));
  }
}

std::string why_nothing_left(const TraceStats& stats, const TraceOptions& options) {
  std::string why = fmt::format("no row to replay: {} rows read", stats.rows);
  if (stats.other_model > 0) {
    why += fmt::format(", {} of a model other than --trace-model '{}'", stats.other_model,
                       options.model);
  }
  if (stats.other_log_type > 0) {
    why += fmt::format(", {} of a log type other than --trace-log-type '{}'", stats.other_log_type,
                       options.log_type);
  }
  if (stats.empty > 0) why += fmt::format(", {} with 0 input or 0 output tokens", stats.empty);
  if (options.window) {
    why += fmt::format(" in or before --trace-window {:g}-{:g} (seconds from the first row)",
                       options.window->start_s, options.window->end_s);
  }
  return why;
}

// When each row is due: its trace time after `origin_ns`, compressed by `speed`.
std::shared_ptr<const std::vector<std::int64_t>> replay_offsets(
    const std::vector<std::int64_t>& times_ns, std::int64_t origin_ns, double speed) {
  auto offsets = std::make_shared<std::vector<std::int64_t>>();
  offsets->reserve(times_ns.size());
  for (const std::int64_t time_ns : times_ns) {
    offsets->push_back(
        static_cast<std::int64_t>(std::llround(static_cast<double>(time_ns - origin_ns) / speed)));
  }
  return offsets;
}

// The reader of the format's rows.
void read_rows(TraceFormat format, std::istream& in, const std::string& path,
               const detail::TraceRowSink& sink) {
  switch (format) {
    case TraceFormat::azure: return detail::read_azure_rows(in, path, sink);
    case TraceFormat::burstgpt: return detail::read_burstgpt_rows(in, path, sink);
    case TraceFormat::mooncake: return detail::read_mooncake_rows(in, path, sink);
    case TraceFormat::weka: break;  // sessions, not rows: agent_trace.hpp reads them
  }
  throw std::invalid_argument("--trace-format weka: replayed as sessions, not rows");
}

}  // namespace

TraceFile::TraceFile(const std::string& path, const TraceOptions& options,
                     std::optional<std::size_t> max_rows)
    : path_(path) {
  check_trace_options(options);
  std::ifstream in = detail::open_dataset_file(path, "trace");
  const auto window_ns = [&](double seconds) { return s_to_ns_rounded(seconds); };
  std::vector<ItemSpan> spans;
  std::vector<std::int64_t> times_ns;  // trace time of each used row, from the file's first row
  std::optional<std::int64_t> first_ns;
  std::int64_t previous_ns = 0;
  std::size_t previous_line = 0;
  read_rows(options.format, in, path, [&](const detail::TraceRecord& row) {
    if (!first_ns) first_ns = previous_ns = row.time_ns;
    if (row.time_ns < previous_ns) {
      throw DatasetError(
          path, row.span.line,
          fmt::format("timestamp {:.3f} s (from the first row) is before the previous row's "
                      "{:.3f} s (line {}): a trace's rows must be in time order",
                      ns_to_s(row.time_ns - *first_ns), ns_to_s(previous_ns - *first_ns),
                      previous_line));
    }
    previous_ns = row.time_ns;
    previous_line = row.span.line;
    const std::int64_t time_ns = row.time_ns - *first_ns;
    if (options.window && time_ns >= window_ns(options.window->end_s)) return false;
    ++stats_.rows;
    if (!options.model.empty() && row.model != options.model) {
      ++stats_.other_model;
    } else if (!options.log_type.empty() && row.log_type != options.log_type) {
      ++stats_.other_log_type;
    } else if (row.input_len == 0 || row.output_len == 0) {
      ++stats_.empty;
    } else if (options.window && time_ns < window_ns(options.window->start_s)) {
      ++stats_.outside_window;
    } else {
      rows_.push_back({row.input_len, row.output_len});
      times_ns.push_back(time_ns);
      if (options.format == TraceFormat::mooncake) spans.push_back(row.span);
      note_first_block(row.first_hash_id);
    }
    return !(max_rows && rows_.size() >= *max_rows);
  });
  if (in.bad()) throw DatasetError(path, 0, "read error");
  if (stats_.rows == 0 && !first_ns) throw DatasetError(path, 0, "no request rows in the file");
  if (rows_.empty()) throw DatasetError(path, 0, why_nothing_left(stats_, options));
  stats_.used = rows_.size();
  stats_.first_s = ns_to_s(times_ns.front());
  stats_.last_s = ns_to_s(times_ns.back());
  offsets_ = replay_offsets(times_ns,
                            options.window ? window_ns(options.window->start_s) : times_ns.front(),
                            options.speed);
  rows_.shrink_to_fit();
  if (options.format == TraceFormat::mooncake) lines_.emplace(path, std::move(spans));
}

// Prompts share a prefix exactly when they share their first block: once two do, the ids
// seen need no longer be kept.
void TraceFile::note_first_block(std::optional<std::int64_t> id) {
  if (!id || shares_prefixes_) return;
  shares_prefixes_ = !first_blocks_.insert(*id).second;
  if (shares_prefixes_) first_blocks_ = {};
}

std::vector<std::int64_t> TraceFile::hash_ids(std::size_t row) const {
  if (!lines_) return {};
  const std::string line = lines_->read(row);
  const std::size_t line_number = lines_->span(row).line;
  std::string_view text(line);
  if (line_number == 1 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  detail::TraceRecord record;
  return detail::parse_mooncake_line(text, path_, line_number, record)
      .at("hash_ids")
      .get<std::vector<std::int64_t>>();
}

}  // namespace bench::workload
