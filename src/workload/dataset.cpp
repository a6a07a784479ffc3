#include "bench/workload/dataset.hpp"

#include <optional>
#include <string_view>

namespace bench::workload {

std::optional<DatasetKind> parse_dataset_kind(std::string_view name) {
  if (name == "random") return DatasetKind::random;
  if (name == "sharegpt") return DatasetKind::sharegpt;
  if (name == "jsonl") return DatasetKind::jsonl;
  if (name == "shared-prefix") return DatasetKind::shared_prefix;
  if (name == "random-ids") return DatasetKind::random_ids;
  if (name == "trace") return DatasetKind::trace;
  return std::nullopt;
}

std::string_view dataset_kind_name(DatasetKind kind) {
  switch (kind) {
    case DatasetKind::random: return "random";
    case DatasetKind::sharegpt: return "sharegpt";
    case DatasetKind::jsonl: return "jsonl";
    case DatasetKind::shared_prefix: return "shared-prefix";
    case DatasetKind::random_ids: return "random-ids";
    case DatasetKind::trace: return "trace";
  }
  return "random";
}

LengthRange input_length_range(const DatasetOptions& options) {
  return length_range(options.input_len, options.range_ratio, options.range_rule);
}

LengthRange output_length_range(const DatasetOptions& options) {
  return length_range(options.output_len, options.output_range_ratio.value_or(options.range_ratio),
                      options.range_rule);
}

bool replays_agent_sessions(const DatasetOptions& options) {
  return options.kind == DatasetKind::trace && options.trace.format == TraceFormat::weka;
}

bool brings_arrivals(const DatasetOptions& options) {
  return options.kind == DatasetKind::trace && !replays_agent_sessions(options);
}

}  // namespace bench::workload
