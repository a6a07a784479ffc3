#include "bench/app/run/commands.hpp"

#include <variant>

#include "bench/cli/exit_codes.hpp"
#include "bench/compare/compare.hpp"
#include "bench/merge/merge.hpp"
#include "bench/report/answer_check.hpp"
#include "bench/report/html_report.hpp"
#include "bench/report/report.hpp"
#include "bench/results/answer_check.hpp"
#include "bench/results/format.hpp"
#include "bench/results/llmd_report.hpp"
#include "bench/results/shape.hpp"
#include "bench/results/shard_state.hpp"
#include "bench/results/writer.hpp"
#include "bench/util/atomic_file.hpp"

namespace bench::app {

static_assert(compare::kExitRegression == cli::kExitGateFailed);

int run_compare(const cli::CompareOptions& options, std::ostream& out, std::ostream& err) {
  auto base = compare::load_results(options.base_path);
  auto next = compare::load_results(options.new_path);
  for (const auto* loaded : {&base, &next}) {
    if (const auto* error = std::get_if<compare::CompareError>(loaded)) {
      err << "bench compare: error: " << error->message << "\n";
      return cli::kExitUsage;
    }
  }
  compare::CompareOptions compare_options;
  compare_options.base_name = options.base_path;
  compare_options.new_name = options.new_path;
  compare_options.threshold = options.fail_on_regression.all;
  compare_options.metric_thresholds = options.fail_on_regression.by_metric;
  auto compared = compare::compare(std::get<nlohmann::json>(base), std::get<nlohmann::json>(next),
                                   compare_options);
  if (const auto* error = std::get_if<compare::CompareError>(&compared)) {
    err << "bench compare: error: " << error->message << "\n";
    return cli::kExitUsage;
  }
  const compare::Comparison& comparison = std::get<compare::Comparison>(compared);
  for (const std::string& warning : comparison.warnings) {
    err << "bench compare: warning: " << warning << "\n";
  }
  if (options.json) {
    out << compare::to_json(comparison).dump(2) << "\n";
  } else {
    out << compare::render_text(comparison);
  }
  return comparison.failed() ? cli::kExitGateFailed : cli::kExitOk;
}

int run_report(const cli::ReportOptions& options, std::ostream& err) {
  auto results = compare::load_results(options.results_path);
  if (const auto* error = std::get_if<compare::CompareError>(&results)) {
    err << "bench report: error: " << error->message << "\n";
    return cli::kExitUsage;
  }
  // A search's probes are a sweep in load order (app/search/search_report.hpp): drawn as one.
  nlohmann::json& loaded = std::get<nlohmann::json>(results);
  if (loaded.is_object() && loaded.value(bench::results::key::kind, nlohmann::json()) ==
                                bench::results::kind_name(bench::results::Kind::search)) {
    loaded[bench::results::key::kind] = bench::results::kind_name(bench::results::Kind::sweep);
  }
  // Any other JSON ({"a": 1}) is refused as `bench compare` refuses it, never an empty report.
  const auto kind =
      bench::results::classify(std::get<nlohmann::json>(results), options.results_path);
  if (const auto* error = std::get_if<bench::results::FormatError>(&kind)) {
    err << "bench report: error: " << error->message << "\n";
    return cli::kExitUsage;
  }
  try {
    write_file_atomically(options.output_path,
                          report::render_html_report(std::get<nlohmann::json>(results)));
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
  auto results = compare::load_results(options.results_path);
  if (const auto* error = std::get_if<compare::CompareError>(&results)) {
    err << "bench export: error: " << error->message << "\n";
    return cli::kExitUsage;
  }
  auto exported = bench::results::llmd_export(std::get<nlohmann::json>(results),
                                              options.results_path, options.point);
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
    auto loaded = compare::load_results(path);
    if (const auto* error = std::get_if<compare::CompareError>(&loaded)) {
      err << "bench merge: error: " << error->message << "\n";
      return cli::kExitUsage;
    }
    shards.push_back({path, std::move(std::get<nlohmann::json>(loaded))});
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
