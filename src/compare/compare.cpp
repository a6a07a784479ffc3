// The comparison itself: which figures, which way is worse, how sweep points are matched, and
// which configuration differences make the comparison suspect.
#include "bench/compare/compare.hpp"

#include <cmath>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bench/compare/provenance_check.hpp"
#include "bench/compare/unit_check.hpp"
#include "bench/compare/workload_check.hpp"
#include "bench/metrics/confidence.hpp"
#include "bench/results/format.hpp"
#include "bench/results/latency_figures.hpp"
#include "bench/results/peer_file_read.hpp"
#include "bench/results/repeats.hpp"
#include "bench/results/run_metrics.hpp"
#include "bench/results/shape.hpp"

namespace bench::compare {
namespace {

using nlohmann::json;

struct MetricSpec {
  std::string key;  // results key; "error_rate" is computed (failed / sent)
  std::string label;
  std::string_view unit;
  Direction direction;
  bool only_when_present;   // goodput: a row only when a side measured it
  bool can_regress = true;  // false: shown and judged, never a regression (nor a failure)
};

// The throughputs (output first, the headline of docs/metrics.md) with input's computed part and
// cached share, goodput and the efficiency figures.
const MetricSpec kThroughputMetrics[] = {
    {"output_throughput", "Output token throughput", "output tok/s", Direction::higher_is_better,
     false},
    {"input_throughput", "Input token throughput", "input tok/s", Direction::higher_is_better,
     false},
    // The input split: a row when a side knows it (a server that discloses cached tokens), so
    // files from before it, or of servers that never say, gain no rows of n/a.
    {"computed_input_throughput", "Input computed (prefilled)", "input tok/s",
     Direction::higher_is_better, true},
    // More cached means less of the input was work the server did: worse (better where both
    // runs asked for a shared prefix: judged()), yet a property of the workload and the cache
    // rather than of the server's speed, so it never fails a run.
    {"cached_input_share", "Input cached share", "fraction of input", Direction::lower_is_better,
     true, false},
    {"total_throughput", "Total token throughput", "total tok/s", Direction::higher_is_better,
     false},
    {"request_throughput", "Request throughput", "req/s", Direction::higher_is_better, false},
    {"goodput", "Goodput", "req/s", Direction::higher_is_better, true},
    // The efficiency figures, each of its kind: rows only when a side knows them (--gpus,
    // --gpu-hour-price), so files without them gain no rows of n/a.
    {"output_throughput_per_gpu", "Output per GPU", "output tok/s per GPU",
     Direction::higher_is_better, true},
    {"input_throughput_per_gpu", "Input per GPU", "input tok/s per GPU",
     Direction::higher_is_better, true},
    {"total_throughput_per_gpu", "Total per GPU", "total tok/s per GPU",
     Direction::higher_is_better, true},
    {"median_output_throughput_per_user", "Output per user median", "output tok/s per user",
     Direction::higher_is_better, true},
    {"p10_output_throughput_per_user", "Output per user p10", "output tok/s per user",
     Direction::higher_is_better, true},
    {"usd_per_million_output_tokens", "Cost per 1M output tokens", "USD",
     Direction::lower_is_better, true},
    {"usd_per_million_input_tokens", "Cost per 1M input tokens", "USD", Direction::lower_is_better,
     true},
    {"usd_per_million_total_tokens", "Cost per 1M total tokens", "USD", Direction::lower_is_better,
     true},
};

// The key figures, in the report's order: the throughputs, then median and p99 of each latency
// the catalogue gives a compare label (latency_figures.hpp), then errors.
std::vector<MetricSpec> make_metric_specs() {
  std::vector<MetricSpec> specs(std::begin(kThroughputMetrics), std::end(kThroughputMetrics));
  for (const results::LatencyFigure& figure : results::latency_figures()) {
    if (figure.compare_label.empty()) continue;
    for (std::string_view stat : {"median", "p99"}) {
      specs.push_back({results::distribution_key(stat, figure.key),
                       fmt::format("{} {}", figure.compare_label, stat), "ms",
                       Direction::lower_is_better, false});
    }
  }
  specs.push_back({"error_rate", "Error rate", "% of sent", Direction::lower_is_better, false});
  return specs;
}

const std::vector<MetricSpec>& metric_specs() {
  static const std::vector<MetricSpec> specs = make_metric_specs();
  return specs;
}

enum class Shape { run, sweep };

struct Side {
  const json* results = nullptr;
  std::string_view name;
  Shape shape = Shape::run;
};

struct Point {
  std::string label;
  json value;  // the swept variable's value, matched across the two sweeps
  const json* run = nullptr;
};

std::variant<Shape, CompareError> shape_of(const json& results, std::string_view name) {
  const auto kind = results::classify(results, name);
  if (const auto* error = std::get_if<results::FormatError>(&kind)) {
    return CompareError{error->message};
  }
  // A search's probes are a sweep's points in load order, matched by load like a sweep's.
  const results::Kind found = std::get<results::Kind>(kind);
  return found == results::Kind::sweep || found == results::Kind::search ? Shape::sweep
                                                                         : Shape::run;
}

std::string value_text(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number()) return fmt::format("{}", value.get<double>());
  return value.dump();
}

std::string sweep_variable(const json& sweep) {
  const json settings = sweep.value(results::key::sweep, json::object());
  if (!settings.is_object()) return "point";
  const json variable = settings.value(results::key::variable, json("point"));
  return variable.is_string() ? variable.get<std::string>() : "point";
}

// A sweep's points with the value each was run at: the sweep's own list when it has one entry
// per point, else the point's setting (max_concurrency, since "concurrency" is the achieved
// figure; request_rate).
std::vector<Point> points_of(const json& sweep) {
  const std::string variable = sweep_variable(sweep);
  const json settings = sweep.value(results::key::sweep, json::object());
  const json values = settings.is_object() ? settings.value(results::key::values, json()) : json();
  const json& points = sweep[results::key::points];
  std::vector<Point> out;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const json& point = points[i];
    json value;
    if (values.is_array() && values.size() == points.size()) {
      value = values[i];
    } else if (point.is_object()) {
      const std::string key =
          variable == "concurrency" ? std::string(results::key::max_concurrency) : variable;
      value = point.value(key, json());
    }
    std::string label = value.is_null() ? fmt::format("point {}", i + 1)
                                        : fmt::format("{}={}", variable, value_text(value));
    out.push_back({std::move(label), std::move(value), point.is_object() ? &point : nullptr});
  }
  return out;
}

bool same_value(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  return !a.is_null() && a == b;
}

std::optional<double> number(const json& run, std::string_view key) {
  const auto found = run.find(key);
  if (found == run.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

std::optional<double> metric_value(const json& run, const MetricSpec& spec) {
  // Input and total are unknown when some input count is (old files wrote 0 or a part).
  if (spec.key != "error_rate") return results::known_metric(run, spec.key);
  const std::optional<double> sent = number(run, "sent");
  const std::optional<double> failed = number(run, "failed");
  if (!sent || !failed || *sent <= 0) return std::nullopt;
  return *failed / *sent * 100;
}

// Today's rule, by size alone: better or worse by the figure's direction, a regression beyond
// the threshold.
Row judge_size(const MetricSpec& spec, const json& base, const json& next,
               std::optional<double> threshold) {
  Row row{std::string(spec.key),
          std::string(spec.label),
          std::string(spec.unit),
          spec.direction,
          metric_value(base, spec),
          metric_value(next, spec),
          std::nullopt,
          Verdict::same,
          std::nullopt,
          std::nullopt};
  if (!row.base_value || !row.new_value) {
    row.verdict = Verdict::not_comparable;
    return row;
  }
  const double before = *row.base_value;
  const double after = *row.new_value;
  if (before != 0) {
    row.change_pct = (after - before) / std::abs(before) * 100;
  } else if (after == 0) {
    row.change_pct = 0.0;
  }
  if (after == before || (row.change_pct && std::abs(*row.change_pct) < kNegligibleChangePct)) {
    return row;
  }
  const bool went_up = after > before;
  const bool improved = went_up == (spec.direction == Direction::higher_is_better);
  if (improved) {
    row.verdict = Verdict::better;
    return row;
  }
  // Strictly beyond the threshold: a change of exactly 5% passes --fail-on-regression 5%.
  // From a base of 0 the change is infinite, so beyond any threshold.
  const bool beyond = spec.can_regress && threshold &&
                      (!row.change_pct || std::abs(*row.change_pct) > *threshold * 100);
  row.verdict = beyond ? Verdict::regression : Verdict::worse;
  return row;
}

// The figure in each repeat of a repeated point; nullopt for a single run, or when a repeat
// does not know it.
std::optional<std::vector<double>> repeat_values(const json& point, const MetricSpec& spec) {
  if (results::repeat_count(point) < 2) return std::nullopt;
  std::vector<double> values;
  for (const json& run : point[results::key::repeat_runs]) {
    const std::optional<double> value = run.is_object() ? metric_value(run, spec) : std::nullopt;
    if (!value) return std::nullopt;
    values.push_back(*value);
  }
  return values;
}

// Welch's t-test of the two sides' repeats: the row's p and detectable change; a change the
// test cannot tell from noise is no verdict of better or worse.
void test_noise(Row& row, const MetricSpec& spec, const json& base, const json& next) {
  const auto before = repeat_values(base, spec);
  const auto after = repeat_values(next, spec);
  if (!before || !after) return;
  const auto test = metrics::welch_test(*before, *after, kSignificance);
  if (!test) return;
  row.p_value = test->p_value;
  if (row.base_value && *row.base_value != 0) {
    row.detectable_pct = test->min_significant_difference / std::abs(*row.base_value) * 100;
  }
  const bool moved = row.verdict == Verdict::better || row.verdict == Verdict::worse ||
                     row.verdict == Verdict::regression;
  if (moved && test->p_value >= kSignificance) row.verdict = Verdict::below_detectable;
}

Row compare_metric(const MetricSpec& spec, const json& base, const json& next,
                   std::optional<double> threshold) {
  Row row = judge_size(spec, base, next, threshold);
  test_noise(row, spec, base, next);
  return row;
}

// A run that asked for a shared prefix (--prefix-share S > 0) measures the prefix cache on
// purpose: there a higher cached share is the cache doing its work, so better, where elsewhere
// it is worse (it flatters input throughput). Only when both sides asked: otherwise the
// settings differ, which is warned of, and the usual reading stays.
MetricSpec judged(const MetricSpec& spec, const json& base, const json& next) {
  if (spec.key != results::key::cached_input_share) return spec;
  const auto asked = [](const json& run) {
    return results::known_metric(run, results::key::prefix_share).value_or(0) > 0;
  };
  MetricSpec out = spec;
  if (asked(base) && asked(next)) out.direction = Direction::higher_is_better;
  return out;
}

PointComparison compare_runs(std::string label, const json& base, const json& next,
                             const Comparison& comparison) {
  PointComparison point{std::move(label), {}};
  point.base_repeats = results::repeat_count(base);
  point.new_repeats = results::repeat_count(next);
  for (const MetricSpec& spec : metric_specs()) {
    if (spec.only_when_present && !metric_value(base, spec) && !metric_value(next, spec)) {
      continue;
    }
    point.rows.push_back(
        compare_metric(judged(spec, base, next), base, next, comparison.threshold_of(spec.key)));
  }
  return point;
}

// Settings that change what the figures mean. Each reads the top-level key (what ran) or the
// config object (what was asked for); a key absent on either side is not compared.
struct Setting {
  std::string_view name;
  json (*read)(const json& run);
};

json top(const json& run, std::string_view key) {
  const auto found = run.find(key);
  return found == run.end() ? json() : *found;
}
json config(const json& run, std::string_view key) {
  const auto found = run.find("config");
  if (found == run.end() || !found->is_object()) return json();
  return top(*found, key);
}

// The embedded server's setting `key`; null for a real server or a file from before it was
// recorded.
json simulator(const json& run, std::string_view key) {
  const auto found = run.find("simulator");
  if (found == run.end() || !found->is_object()) return json();
  return top(*found, key);
}

constexpr Setting kSettings[] = {
    {"model", [](const json& run) { return top(run, "model"); }},
    {"endpoint", [](const json& run) { return top(run, "endpoint"); }},
    {"concurrency", [](const json& run) { return top(run, "max_concurrency"); }},
    {"request_rate", [](const json& run) { return top(run, "request_rate"); }},
    // --prefix-share: how much of each prompt a warm prefix cache could serve; a run with more of
    // it does less prefill. Named as the sweep variable, so a prefix-share sweep's matched points
    // are not warned of it.
    {results::key::prefix_share,
     [](const json& run) { return top(run, results::key::prefix_share); }},
    {"ramp_up_strategy", [](const json& run) { return top(run, "ramp_up_strategy"); }},
    {"ramp_up_start_rps", [](const json& run) { return top(run, "ramp_up_start_rps"); }},
    {"ramp_up_end_rps", [](const json& run) { return top(run, "ramp_up_end_rps"); }},
    {"input_len", [](const json& run) { return config(run, "input_len"); }},
    {"output_len", [](const json& run) { return config(run, "output_len"); }},
    {"dataset", [](const json& run) { return config(run, "dataset"); }},
    {"ignore_eos", [](const json& run) { return config(run, "ignore_eos"); }},
    // --no-stream: whole answers, timed only at their end; a file from before it streamed.
    {"stream",
     [](const json& run) {
       const json stream = config(run, "stream");
       return stream.is_null() ? json(true) : stream;
     }},
    // --images-per-request: images are prefill of their own, their size sets how much.
    {results::key::images_per_request,
     [](const json& run) { return config(run, results::key::images_per_request); }},
    {results::key::image_size,
     [](const json& run) { return config(run, results::key::image_size); }},
    {results::key::image_format,
     [](const json& run) { return config(run, results::key::image_format); }},
    // A dataset's own image files: how many its rows name.
    {results::key::dataset_images,
     [](const json& run) { return config(run, results::key::dataset_images); }},
    {"embedded_server", [](const json& run) { return top(run, "embedded_server"); }},
    // A time-scaled simulator runs faster than real time: its figures are not a real server's.
    {"simulator profile", [](const json& run) { return simulator(run, "profile"); }},
    {"simulator time scale", [](const json& run) { return simulator(run, "time_scale"); }},
    {"simulator faults", [](const json& run) { return simulator(run, "faults"); }},
    {"simulator jitter", [](const json& run) { return simulator(run, "jitter_ms"); }},
    {"output token count source",
     [](const json& run) {
       const auto found = run.find("token_count_source");
       return found != run.end() && found->is_object() ? top(*found, "output") : json();
     }},
};

void add_warning(Comparison& comparison, std::string warning) {
  for (const std::string& existing : comparison.warnings) {
    if (existing == warning) return;
  }
  comparison.warnings.push_back(std::move(warning));
}

void warn_on_differences(Comparison& comparison, const json& base, const json& next) {
  for (const Setting& setting : kSettings) {
    if (setting.name == comparison.sweep_variable) continue;  // matched, so equal
    const json before = setting.read(base);
    const json after = setting.read(next);
    if (before.is_null() || after.is_null() || same_value(before, after)) continue;
    add_warning(comparison, fmt::format("{} and {} differ in {} ({} vs {}): the comparison may "
                                        "be meaningless",
                                        comparison.base_name, comparison.new_name, setting.name,
                                        value_text(before), value_text(after)));
  }
  // A peer's file records neither its workload's fingerprint nor what made it: its own warning
  // below says so, instead of calling it an older bench's.
  const bool peer_file =
      top(base, results::kPeerFileKey).is_string() || top(next, results::kPeerFileKey).is_string();
  if (auto workload = workload_warning(base, comparison.base_name, next, comparison.new_name);
      workload && !peer_file) {
    add_warning(comparison, std::move(*workload));
  }
  for (std::string& made :
       provenance_warnings(base, comparison.base_name, next, comparison.new_name)) {
    if (!peer_file) add_warning(comparison, std::move(made));
  }
  for (const auto& [run, name] :
       {std::pair{&base, comparison.base_name}, std::pair{&next, comparison.new_name}}) {
    if (top(*run, "interrupted") == json(true)) {
      add_warning(comparison, fmt::format("{} was interrupted: its figures cover part of the "
                                          "run",
                                          name));
    }
    const json tool = top(*run, results::kPeerFileKey);
    const results::PeerFileTool* peer =
        tool.is_string() ? results::peer_file_tool_info(tool.get<std::string>()) : nullptr;
    if (peer != nullptr) {
      add_warning(comparison,
                  fmt::format("{} is a result file in {}'s format, read by its names ({}); it "
                              "records no workload fingerprint or provenance, so neither can be "
                              "checked (docs/coming-from-vllm-sglang.md)",
                              name, peer->title, peer->names_note));
    }
  }
}

std::string values_list(const std::vector<Point>& points) {
  std::string out;
  for (const Point& point : points) {
    if (!out.empty()) out += ", ";
    out += point.value.is_null() ? point.label : value_text(point.value);
  }
  return out;
}

std::variant<Comparison, CompareError> compare_sweeps(Comparison comparison, const json& base,
                                                      const json& next) {
  const std::string base_variable = sweep_variable(base);
  const std::string new_variable = sweep_variable(next);
  if (base_variable != new_variable) {
    return CompareError{
        fmt::format("cannot match the points of {} (a {} sweep) with those of {} (a {} sweep)",
                    comparison.base_name, base_variable, comparison.new_name, new_variable)};
  }
  comparison.sweep_variable = base_variable;
  const std::vector<Point> base_points = points_of(base);
  const std::vector<Point> new_points = points_of(next);
  std::vector<bool> matched(new_points.size(), false);
  for (const Point& point : base_points) {
    // The first unmatched point of the same value: a value swept twice pairs in order.
    std::size_t found = new_points.size();
    for (std::size_t i = 0; i < new_points.size() && found == new_points.size(); ++i) {
      if (!matched[i] && same_value(point.value, new_points[i].value)) found = i;
    }
    if (found == new_points.size() || point.run == nullptr || new_points[found].run == nullptr) {
      comparison.only_in_base.push_back(point.label);
      continue;
    }
    matched[found] = true;
    comparison.points.push_back(
        compare_runs(point.label, *point.run, *new_points[found].run, comparison));
    warn_on_differences(comparison, *point.run, *new_points[found].run);
  }
  for (std::size_t i = 0; i < new_points.size(); ++i) {
    if (!matched[i]) comparison.only_in_new.push_back(new_points[i].label);
  }
  if (comparison.points.empty()) {
    add_warning(comparison,
                fmt::format("no point of {} ({}={}) matches a point of {} ({}={}): "
                            "nothing to compare",
                            comparison.base_name, base_variable, values_list(base_points),
                            comparison.new_name, new_variable, values_list(new_points)));
  }
  return comparison;
}

}  // namespace

std::optional<double> Comparison::threshold_of(std::string_view metric) const {
  const auto own = metric_thresholds.find(std::string(metric));
  return own != metric_thresholds.end() ? std::optional<double>(own->second) : threshold;
}

const std::vector<std::string>& compared_metrics() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const MetricSpec& spec : metric_specs()) out.emplace_back(spec.key);
    return out;
  }();
  return keys;
}

std::size_t Comparison::regressions() const {
  std::size_t count = 0;
  for (const PointComparison& point : points) {
    for (const Row& row : point.rows) count += row.verdict == Verdict::regression ? 1 : 0;
  }
  return count;
}

std::variant<Comparison, CompareError> compare(const json& base, const json& next,
                                               const CompareOptions& options) {
  const auto base_shape = shape_of(base, options.base_name);
  if (const auto* error = std::get_if<CompareError>(&base_shape)) return *error;
  const auto new_shape = shape_of(next, options.new_name);
  if (const auto* error = std::get_if<CompareError>(&new_shape)) return *error;

  Comparison comparison;
  comparison.base_name = options.base_name;
  comparison.new_name = options.new_name;
  comparison.threshold = options.threshold;
  comparison.metric_thresholds = options.metric_thresholds;
  comparison.setup = setup_items(base, next);

  const Side sides[] = {{&base, options.base_name, std::get<Shape>(base_shape)},
                        {&next, options.new_name, std::get<Shape>(new_shape)}};
  if (sides[0].shape != sides[1].shape) {
    const Side& sweep = sides[0].shape == Shape::sweep ? sides[0] : sides[1];
    const Side& run = sides[0].shape == Shape::sweep ? sides[1] : sides[0];
    return CompareError{fmt::format(
        "cannot compare a sweep ({}: {} {}) with a single run ({}): give two single runs or "
        "two sweeps",
        sweep.name, sweep_variable(*sweep.results), values_list(points_of(*sweep.results)),
        run.name)};
  }
  if (auto refusal = unit_refusal(base, options.base_name, next, options.new_name)) {
    return CompareError{std::move(*refusal)};
  }
  if (sides[0].shape == Shape::sweep) return compare_sweeps(std::move(comparison), base, next);

  comparison.points.push_back(compare_runs("", base, next, comparison));
  warn_on_differences(comparison, base, next);
  return comparison;
}

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::same: return "same";
    case Verdict::better: return "better";
    case Verdict::worse: return "worse";
    case Verdict::regression: return "regression";
    case Verdict::not_comparable: return "not_comparable";
    case Verdict::below_detectable: return "below_detectable";
  }
  return "same";
}

std::string_view direction_name(Direction direction) {
  return direction == Direction::higher_is_better ? "higher_is_better" : "lower_is_better";
}

}  // namespace bench::compare
