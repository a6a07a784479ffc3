#include "bench/app/run/commands.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "bench/cli/exit_codes.hpp"
#include "bench/compare/compare.hpp"
#include "bench/merge/merge.hpp"
#include "bench/peer_view/render.hpp"
#include "bench/report/answer_check.hpp"
#include "bench/report/html_report.hpp"
#include "bench/report/report.hpp"
#include "bench/results/answer_check.hpp"
#include "bench/results/format.hpp"
#include "bench/results/llmd_report.hpp"
#include "bench/results/read_file.hpp"
#include "bench/results/shape.hpp"
#include "bench/results/shard_state.hpp"
#include "bench/results/writer.hpp"
#include "bench/util/atomic_file.hpp"
#include "peer_report.hpp"

namespace bench::app {

static_assert(compare::kExitRegression == cli::kExitGateFailed);

namespace {

// The results file at `path` as every command reads one (results::read_results_file), or
// nullopt once "bench COMMAND: error: ..." is said.
std::optional<bench::results::ResultsFile> read_or_refuse(const std::string& path,
                                                          std::string_view command,
                                                          std::ostream& err) {
  auto file = bench::results::read_results_file(path);
  if (const auto* error = std::get_if<bench::results::FormatError>(&file)) {
    err << "bench " << command << ": error: " << error->message << "\n";
    return std::nullopt;
  }
  return std::move(std::get<bench::results::ResultsFile>(file));
}

}  // namespace

int run_compare(const cli::CompareOptions& options, std::ostream& out, std::ostream& err) {
  const auto base = read_or_refuse(options.base_path, "compare", err);
  if (!base) return cli::kExitUsage;
  const auto next = read_or_refuse(options.new_path, "compare", err);
  if (!next) return cli::kExitUsage;
  compare::CompareOptions compare_options;
  compare_options.base_name = options.base_path;
  compare_options.new_name = options.new_path;
  compare_options.threshold = options.fail_on_regression.all;
  compare_options.metric_thresholds = options.fail_on_regression.by_metric;
  auto compared = compare::compare(base->results, next->results, compare_options);
  if (const auto* error = std::get_if<compare::CompareError>(&compared)) {
    err << "bench compare: error: " << error->message << "\n";
    return cli::kExitUsage;
  }
  const compare::Comparison& comparison = std::get<compare::Comparison>(compared);
  for (const std::string& warning : comparison.warnings) {
    err << "bench compare: warning: " << warning << "\n";
  }
  if (options.format == cli::OutputFormat::json) {
    out << compare::to_json(comparison).dump(2) << "\n";
  } else {
    out << compare::render_text(comparison);
  }
  return comparison.failed() ? cli::kExitGateFailed : cli::kExitOk;
}

int run_report(const cli::ReportOptions& options, std::ostream& out, std::ostream& err) {
  if (options.output_path.empty() && options.as.empty()) {
    err << "bench report: error: give -o REPORT.html, or --as TOOLS with --requests LOG\n";
    return cli::kExitUsage;
  }
  // Any JSON that is not a results file ({"a": 1}) is refused, never an empty report.
  const auto file = read_or_refuse(options.results_path, "report", err);
  if (!file) return cli::kExitUsage;
  std::optional<nlohmann::json> peer_views;
  if (!options.as.empty()) {
    const auto views = recompute_peer_views(options, *file, err);
    if (!views) return cli::kExitUsage;
    print_peer_views(*views, options, file->results, out);
    if (options.output_path.empty()) return cli::kExitOk;
    peer_views = peer_view::to_json(*views, file->results);
  }
  try {
    write_file_atomically(
        options.output_path,
        report::render_html_report(file->results, peer_views ? &*peer_views : nullptr));
  } catch (const std::invalid_argument& error) {
    err << "bench report: error: " << options.results_path << ": " << error.what() << "\n";
    return cli::kExitUsage;
  } catch (const std::exception& error) {
    err << "bench report: error: " << error.what() << "\n";
    return cli::kExitRunFailed;
  }
  return cli::kExitOk;
}

int run_export(const cli::ExportOptions& options, std::ostream& out, std::ostream& err) {
  const auto file = read_or_refuse(options.results_path, "export", err);
  if (!file) return cli::kExitUsage;
  auto exported = bench::results::llmd_export(*file, options.results_path, options.point);
  if (const auto* error = std::get_if<bench::results::FormatError>(&exported)) {
    err << "bench export: error: " << error->message << "\n";
    return cli::kExitUsage;
  }
  const std::string text = std::get<nlohmann::json>(exported).dump(2) + "\n";
  if (options.output_path.empty()) {
    out << text;
    return cli::kExitOk;
  }
  try {
    write_file_atomically(options.output_path, text);
  } catch (const std::exception& error) {
    err << "bench export: error: " << error.what() << "\n";
    return cli::kExitRunFailed;
  }
  return cli::kExitOk;
}

namespace {

void print_merged(const cli::MergeOptions& options, const merge::Merged& merged,
                  std::ostream& out) {
  switch (options.format) {
    case cli::OutputFormat::json: out << merged.results.dump(2) << "\n"; return;
    case cli::OutputFormat::csv: {
      const bool sweep = bench::results::is_sweep(merged.results);
      out << results::to_csv(
          sweep ? merged.results[bench::results::key::points].get<std::vector<nlohmann::json>>()
                : std::vector<nlohmann::json>{merged.results});
      return;
    }
    case cli::OutputFormat::text: break;
  }
  const nlohmann::json& stamp = merged.results[bench::results::key::merged];
  std::string hosts;
  for (const nlohmann::json& host : stamp[bench::results::key::hosts]) {
    hosts += (hosts.empty() ? "" : ", ") + host.get<std::string>();
  }
  out << "Merged from " << stamp[bench::results::key::shards].dump() << " shards (on " << hosts
      << "); their clocks started " << stamp[bench::results::key::start_spread_ms].dump()
      << " ms apart\n";
  if (bench::results::is_sweep(merged.results)) {
    // A run's text report says the answer check itself; after a sweep's table, as a run does.
    out << report::render_sweep_table(merged.results)
        << report::render_answer_check(
               merged.results.value(bench::results::key::answer_check, nlohmann::json()));
  } else {
    out << report::render_text(merged.runs.front().summary, merged.runs.front().context)
        << report::render_per_server(merged.results);
  }
}

}  // namespace

int run_merge(const cli::MergeOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<merge::ShardFile> shards;
  for (const std::string& path : options.shard_paths) {
    auto file = read_or_refuse(path, "merge", err);
    if (!file) return cli::kExitUsage;
    shards.push_back({path, std::move(file->results)});
  }
  auto merged = merge::merge_shards(shards);
  if (const auto* error = std::get_if<merge::MergeError>(&merged)) {
    err << "bench merge: error: " << error->message << "\n";
    return cli::kExitUsage;
  }
  const merge::Merged& result = std::get<merge::Merged>(merged);
  for (const std::string& warning : result.warnings) {
    err << "bench merge: warning: " << warning << "\n";
  }
  try {
    if (!options.output_path.empty()) {
      write_file_atomically(options.output_path, result.results.dump(2) + "\n");
    }
  } catch (const std::exception& error) {
    err << "bench merge: error: " << error.what() << "\n";
    return cli::kExitRunFailed;
  }
  print_merged(options, result, out);
  return cli::kExitOk;
}

}  // namespace bench::app
