#include "bench/gate/gate.hpp"
#include "bench/results/format.hpp"
#include "bench/results/repeats.hpp"
#include "bench/results/run_metrics.hpp"
#include "bench/results/shape.hpp"
#include "bench/util/text.hpp"

#include <cmath>
#include <optional>
#include <utility>

#include <fmt/format.h>

namespace bench::gate {
namespace {

using bench::results::format_number;
using nlohmann::json;

std::variant<Gate, GateError> parse_metric_gate(GateKind kind, std::string_view spec,
                                                const std::vector<std::string>& known) {
  const std::string_view flag = flag_of(kind);
  const std::size_t equals = spec.find('=');
  const std::string_view metric = util::trim(spec.substr(0, equals));
  const std::string_view value =
      equals == std::string_view::npos ? std::string_view() : util::trim(spec.substr(equals + 1));
  if (equals == std::string_view::npos || metric.empty() || value.empty()) {
    return GateError{fmt::format("{}: '{}' needs METRIC=VALUE", flag, spec)};
  }
  if (std::optional<std::string> unknown = check_metric(flag, metric, known)) {
    return GateError{std::move(*unknown)};
  }
  const std::optional<double> limit = util::parse_finite_double(value);
  if (!limit) {
    return GateError{fmt::format("{}: '{}': VALUE '{}' is not a number", flag, spec, value)};
  }
  // A peer's name (vLLM's total_token_throughput) gates bench's figure of the same meaning.
  return Gate{kind, metric_key(metric), *limit, std::string(spec)};
}

// "0.05" or "5%": the fraction of sent requests that may fail.
std::variant<Gate, GateError> parse_error_rate_gate(std::string_view spec) {
  const std::string_view text = util::trim(spec);
  const bool percent = text.ends_with('%');
  std::optional<double> rate =
      util::parse_finite_double(percent ? text.substr(0, text.size() - 1) : text);
  if (rate && percent) *rate /= 100;
  if (!rate || *rate < 0 || *rate > 1) {
    return GateError{
        fmt::format("--max-error-rate: '{}' is not a fraction from 0 to 1 (0.05, or 5%, lets 5% of "
                    "requests fail)",
                    spec)};
  }
  return Gate{GateKind::max_error_rate, "", *rate, std::string(spec)};
}

// The value and limit of a failed gate, in as many digits as it takes to show they differ
// (612.3 < 800, but 799.9999 < 800 rather than 800 < 800).
std::pair<std::string, std::string> format_pair(double value, double limit) {
  std::string value_text = format_number(value);
  std::string limit_text = format_number(limit);
  if (value_text == limit_text) {
    value_text = fmt::format("{}", value);
    limit_text = fmt::format("{}", limit);
  }
  return {value_text, limit_text};
}

// What a sweep point is called in messages: "concurrency=64", "request_rate=inf". The value is
// the sweep's own list when it has one entry per point, else the point's setting.
std::string point_label(const json& sweep, std::size_t index, const json& point) {
  const auto settings = sweep.find("sweep");
  const bool described = settings != sweep.end() && settings->is_object();
  std::string variable = "point";
  json values;
  if (described) {
    const auto name = settings->find("variable");
    if (name != settings->end() && name->is_string()) variable = name->get<std::string>();
    values = settings->value("values", json());
  }
  json value;
  if (values.is_array() && values.size() == sweep.at("points").size()) {
    value = values[index];
  } else if (variable == "concurrency") {
    value = point.value("max_concurrency", json());  // "concurrency" is the achieved figure
  } else {
    value = point.value(variable, json());
  }
  if (value.is_null()) return fmt::format("point {}", index + 1);
  if (value.is_string()) return fmt::format("{}={}", variable, value.get<std::string>());
  if (value.is_number()) return fmt::format("{}={}", variable, value.get<double>());
  return fmt::format("{}={}", variable, value.dump());
}

// Why a figure is null (unknown): what it needs that the run did not have.
std::string_view null_reason(const json& run, std::string_view metric) {
  namespace key = bench::results::key;
  if (metric == "goodput" || metric == "good_requests") {
    return "not measured in this run, which needs --goodput SLOs";
  }
  if (metric == key::cached_input_share || metric == key::computed_input_throughput ||
      metric == key::cached_input_throughput || metric == key::total_computed_input_tokens ||
      metric == key::total_cached_input_tokens) {
    return "it needs a server that discloses cached prompt tokens "
           "(usage.prompt_tokens_details.cached_tokens)";
  }
  if (metric == key::output_throughput_per_gpu || metric == key::input_throughput_per_gpu ||
      metric == key::total_throughput_per_gpu) {
    if (run.value("/config/gpus"_json_pointer, json()).is_null()) {
      return "it needs --gpus (bench does not guess the server's GPUs)";
    }
  }
  if (metric == key::usd_per_million_output_tokens || metric == key::usd_per_million_input_tokens ||
      metric == key::usd_per_million_total_tokens) {
    if (run.value("/config/gpu_hour_price"_json_pointer, json()).is_null()) {
      return "it needs --gpus and --gpu-hour-price";
    }
  }
  if (metric == key::gpu_energy_joules || metric == key::joules_per_output_token ||
      metric == key::joules_per_total_token) {
    return "no GPU energy counter was scraped in this window (--server-metrics on a target with "
           "DCGM's DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION), or warm-up requests ran inside it";
  }
  if (bench::results::number_at(run, "completed") == 0.0) {
    return "no request completed, so it has no values";
  }
  if (bench::results::needs_stream(metric) && bench::results::streamed_none(run)) {
    return "no request was streamed (--no-stream), and it is timed from a stream's chunks";
  }
  if (metric == key::median_output_throughput_per_user ||
      metric == key::p10_output_throughput_per_user) {
    return "no request had the 2 output tokens a TPOT needs";
  }
  return "it has no values in this run";
}

// Why a metric's gate could not be checked, or nullopt when the value is a number.
std::optional<std::string> unusable(const json& run, const Gate& gate) {
  const std::string_view flag = flag_of(gate.kind);
  if (!run.contains(gate.metric)) {
    return fmt::format("{} is missing from the results ({} {} cannot be checked)", gate.metric,
                       flag, gate.spec);
  }
  const json& value = run[gate.metric];
  if (bench::results::needs_input_tokens(gate.metric) && !bench::results::input_tokens_known(run)) {
    return fmt::format(
        "{} is unknown: the server sent no prompt_tokens for some requests ({} {} "
        "cannot be checked)",
        gate.metric, flag, gate.spec);
  }
  if (value.is_null()) {
    return fmt::format("{} is unknown: {} ({} {} cannot be checked)", gate.metric,
                       null_reason(run, gate.metric), flag, gate.spec);
  }
  if (!value.is_number()) {
    return fmt::format("{} is {}, not a number ({} {} cannot be checked)", gate.metric,
                       value.dump(), flag, gate.spec);
  }
  return std::nullopt;
}

struct Failure {
  std::string reason;
  std::optional<double> value;  // the figure that failed, when there was one
};

// Why `gate` fails on `run`, or nullopt when it passes.
std::optional<Failure> check(const json& run, const Gate& gate) {
  const std::string_view flag = flag_of(gate.kind);
  if (gate.kind == GateKind::max_error_rate) {
    const json sent = run.value("sent", json());
    const json failed = run.value("failed", json());
    if (!sent.is_number() || !failed.is_number()) {
      return Failure{fmt::format("the error rate needs sent and failed in the results ({} {} "
                                 "cannot be checked)",
                                 flag, gate.spec),
                     std::nullopt};
    }
    const double sent_count = sent.get<double>();
    const double failed_count = failed.get<double>();
    if (sent_count <= 0) {
      return Failure{
          fmt::format("no measured request was sent ({} {} cannot be checked)", flag, gate.spec),
          std::nullopt};
    }
    const double rate = failed_count / sent_count;
    if (rate <= gate.limit) return std::nullopt;
    const auto [rate_text, limit_text] = format_pair(rate, gate.limit);
    return Failure{
        fmt::format("error rate = {} ({} failed / {} sent) > {} ({})", rate_text,
                    format_number(failed_count), format_number(sent_count), limit_text, flag),
        rate};
  }
  if (std::optional<std::string> reason = unusable(run, gate)) {
    return Failure{*reason, std::nullopt};
  }
  const double value = run[gate.metric].get<double>();
  const bool under = gate.kind == GateKind::fail_under;
  if (under ? value >= gate.limit : value <= gate.limit) return std::nullopt;
  const auto [value_text, limit_text] = format_pair(value, gate.limit);
  return Failure{fmt::format("{} = {} {} {} ({})", gate.metric, value_text, under ? '<' : '>',
                             limit_text, flag),
                 value};
}

}  // namespace

std::string_view flag_of(GateKind kind) {
  switch (kind) {
    case GateKind::fail_under: return "--fail-under";
    case GateKind::fail_over: return "--fail-over";
    case GateKind::max_error_rate: return "--max-error-rate";
  }
  return "--fail-under";
}

std::variant<Gate, GateError> parse_gate(GateKind kind, std::string_view spec,
                                         const std::vector<std::string>& known) {
  if (kind == GateKind::max_error_rate) return parse_error_rate_gate(spec);
  return parse_metric_gate(kind, spec, known);
}

std::string_view gate_on_name(GateOn on) { return on == GateOn::worst ? "worst" : "mean"; }

namespace {

// The runs a gate holds for in `run` labelled `label`: the run itself, its mean when it was
// repeated, or with GateOn::worst each of its repeats.
void add_gated_runs(std::vector<std::pair<std::string, const json*>>& runs, std::string label,
                    const json& run, GateOn on) {
  const std::size_t repeats = bench::results::repeat_count(run);
  if (repeats < 2) {
    runs.emplace_back(std::move(label), &run);
    return;
  }
  const std::string prefix = label.empty() ? "" : label + ", ";
  if (on == GateOn::mean) {
    runs.emplace_back(fmt::format("{}mean of {} repeats", prefix, repeats), &run);
    return;
  }
  const json& each = run[bench::results::key::repeat_runs];
  for (std::size_t i = 0; i < each.size(); ++i) {
    runs.emplace_back(fmt::format("{}repeat {} of {}", prefix, i + 1, repeats), &each[i]);
  }
}

}  // namespace

GateOutcome evaluate(std::span<const Gate> gates, const json& results, GateOn on) {
  GateOutcome outcome;
  outcome.gates.assign(gates.begin(), gates.end());
  if (gates.empty()) return outcome;

  // (label, run) for every run the gates hold for.
  std::vector<std::pair<std::string, const json*>> runs;
  std::string shape_problem;
  if (!results.is_object()) {
    shape_problem = "the results are not a JSON object";
  } else if (bench::results::is_sweep(results)) {
    const auto found = results.find("points");
    if (found == results.end() || !found->is_array() || found->empty()) {
      shape_problem = "the sweep has no points";
    } else {
      // `runs` holds pointers into it: the results' own array, never a copy.
      const json& points = *found;
      for (std::size_t i = 0; i < points.size(); ++i) {
        if (points[i].is_object()) {
          add_gated_runs(runs, point_label(results, i, points[i]), points[i], on);
        } else {
          runs.emplace_back(fmt::format("point {}", i + 1), nullptr);
        }
      }
    }
  } else {
    add_gated_runs(runs, "", results, on);
  }
  outcome.points = runs.size();

  for (const Gate& gate : gates) {
    if (!shape_problem.empty()) {
      outcome.violations.push_back({gate, "", std::nullopt,
                                    fmt::format("gate failed: {} ({} {} cannot be checked)",
                                                shape_problem, flag_of(gate.kind), gate.spec)});
      continue;
    }
    for (const auto& [label, run] : runs) {
      std::optional<Failure> failure =
          run == nullptr
              ? Failure{fmt::format("the point is not a JSON object ({} {} cannot be checked)",
                                    flag_of(gate.kind), gate.spec),
                        std::nullopt}
              : check(*run, gate);
      if (!failure) continue;
      std::string message = label.empty()
                                ? fmt::format("gate failed: {}", failure->reason)
                                : fmt::format("gate failed at {}: {}", label, failure->reason);
      outcome.violations.push_back({gate, label, failure->value, std::move(message)});
    }
  }
  return outcome;
}

std::string render_violations(const GateOutcome& outcome) {
  std::string out;
  for (const Violation& violation : outcome.violations) {
    out += violation.message;
    out += '\n';
  }
  return out;
}

json to_json(const GateOutcome& outcome) {
  auto describe = [](const Gate& gate) {
    return json{{"flag", flag_of(gate.kind)},
                {"metric", gate.kind == GateKind::max_error_rate ? "error_rate" : gate.metric},
                {"limit", gate.limit}};
  };
  json gates = json::array();
  for (const Gate& gate : outcome.gates) gates.push_back(describe(gate));
  json violations = json::array();
  for (const Violation& violation : outcome.violations) {
    json entry = describe(violation.gate);
    entry["point"] = violation.point.empty() ? json() : json(violation.point);
    entry["value"] = violation.value ? json(*violation.value) : json();
    entry["message"] = violation.message;
    violations.push_back(std::move(entry));
  }
  return {{"passed", !outcome.failed()}, {"gates", gates}, {"violations", violations}};
}

}  // namespace bench::gate
