#include "bench/server_metrics/exposition.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <unordered_map>
#include <utility>

#include "line_reader.hpp"

namespace bench::server_metrics {
namespace {

using detail::LineReader;
using detail::quoted_name;

struct Refusal {
  std::string message;
};

struct FamilyState {
  bool has_help = false;
  bool has_type = false;
  bool has_samples = false;
};

std::optional<MetricType> type_named(std::string_view name) {
  for (MetricType type : {MetricType::counter, MetricType::gauge, MetricType::histogram,
                          MetricType::summary, MetricType::untyped}) {
    if (to_string(type) == name) return type;
  }
  return std::nullopt;
}

std::string_view suffix_of(std::string_view sample_name, std::string_view family_name) {
  if (sample_name.size() < family_name.size() ||
      sample_name.substr(0, family_name.size()) != family_name) {
    return "-";  // not a suffix of this family at all
  }
  return sample_name.substr(family_name.size());
}

// Which sample names a family of each type owns (the exposition format's suffix rules; _created
// comes from OpenMetrics, and prometheus_client writes it beside counters and histograms).
bool owns(const Family& family, std::string_view sample_name) {
  const std::string_view suffix = suffix_of(sample_name, family.name);
  switch (family.type) {
    case MetricType::counter: return suffix.empty() || suffix == "_total" || suffix == "_created";
    case MetricType::histogram:
      return suffix == "_bucket" || suffix == "_sum" || suffix == "_count" || suffix == "_created";
    case MetricType::summary:
      return suffix.empty() || suffix == "_sum" || suffix == "_count" || suffix == "_created";
    case MetricType::gauge:
    case MetricType::untyped: return suffix.empty();
  }
  return false;
}

// The label a sample of its family must carry, with a numeric value: a histogram bucket's upper
// bound `le`, a summary quantile's `quantile`.
std::optional<Refusal> check_required_label(const Family& family, const Sample& sample) {
  std::string_view required;
  if (family.type == MetricType::histogram && sample.name == family.name + "_bucket") {
    required = "le";
  } else if (family.type == MetricType::summary && sample.name == family.name) {
    required = "quantile";
  } else {
    return std::nullopt;
  }
  const std::string* value = sample.label(required);
  if (value == nullptr) {
    return Refusal{"sample " + quoted_name(sample.name) + " of " +
                   std::string(to_string(family.type)) + " " + quoted_name(family.name) +
                   " has no \"" + std::string(required) + "\" label"};
  }
  if (!detail::parse_float(*value)) {
    return Refusal{"sample " + quoted_name(sample.name) + " has a non-numeric \"" +
                   std::string(required) + "\" label"};
  }
  return std::nullopt;
}

class Builder {
 public:
  explicit Builder(const Limits& limits) : limits_(limits) {}

  std::optional<Refusal> add_line(std::string_view line);
  Exposition take() { return std::move(exposition_); }

 private:
  std::optional<Refusal> add_comment(LineReader& reader);
  std::optional<Refusal> add_sample(LineReader& reader);
  std::optional<Refusal> read_labels(LineReader& reader, Sample& sample);
  std::optional<Refusal> read_value(LineReader& reader, Sample& sample);
  std::size_t family_for_declaration(std::string_view name);
  std::optional<std::size_t> family_for_sample(std::string_view name);

  const Limits& limits_;
  Exposition exposition_;
  std::vector<FamilyState> states_;
  std::unordered_map<std::string, std::size_t> index_;  // family name -> position
  std::optional<std::size_t> current_;                  // the family last declared or written
  std::size_t samples_ = 0;
};

std::optional<Refusal> Builder::add_line(std::string_view line) {
  LineReader reader(line);
  reader.skip_blanks();
  if (reader.at_end()) return std::nullopt;
  if (reader.consume('#')) return add_comment(reader);
  return add_sample(reader);
}

std::size_t Builder::family_for_declaration(std::string_view name) {
  const auto found = index_.find(std::string(name));
  if (found != index_.end()) return found->second;
  exposition_.families.push_back(Family{std::string(name), MetricType::untyped, {}, {}});
  states_.emplace_back();
  index_.emplace(std::string(name), exposition_.families.size() - 1);
  return exposition_.families.size() - 1;
}

std::optional<Refusal> Builder::add_comment(LineReader& reader) {
  reader.skip_blanks();
  const std::string_view keyword = reader.token();
  if (keyword != "HELP" && keyword != "TYPE") return std::nullopt;  // a plain comment
  if (!reader.skip_blanks()) return Refusal{std::string(keyword) + " line without a metric name"};
  const std::string_view name = reader.metric_name();
  if (name.empty()) return Refusal{std::string(keyword) + " line without a valid metric name"};
  const bool blank_after_name = reader.skip_blanks();
  if (!reader.at_end() && !blank_after_name) {
    return Refusal{"unexpected character after the metric name in a " + std::string(keyword) +
                   " line"};
  }
  const std::size_t position = family_for_declaration(name);
  Family& family = exposition_.families[position];
  FamilyState& state = states_[position];
  current_ = position;
  if (keyword == "HELP") {
    if (state.has_help) return Refusal{"second HELP line for " + quoted_name(name)};
    std::string error;
    auto help = detail::unescape_help(reader.rest(), error);
    if (!help) return Refusal{error};
    family.help = std::move(*help);
    state.has_help = true;
    return std::nullopt;
  }
  if (state.has_type) return Refusal{"second TYPE line for " + quoted_name(name)};
  if (state.has_samples) {
    return Refusal{"TYPE line for " + quoted_name(name) + " after its samples"};
  }
  const std::string_view type_name = reader.token();
  reader.skip_blanks();
  const auto type = type_named(type_name);
  if (!type || !reader.at_end()) {
    return Refusal{"TYPE line for " + quoted_name(name) +
                   " without one of counter, gauge, histogram, summary, untyped"};
  }
  family.type = *type;
  state.has_type = true;
  return std::nullopt;
}

std::optional<std::size_t> Builder::family_for_sample(std::string_view name) {
  if (current_ && owns(exposition_.families[*current_], name)) return current_;
  static constexpr std::array<std::string_view, 5> kSuffixes = {"_total", "_created", "_bucket",
                                                                "_sum", "_count"};
  for (std::string_view suffix : kSuffixes) {
    if (name.size() <= suffix.size() || name.substr(name.size() - suffix.size()) != suffix) {
      continue;
    }
    const auto base = index_.find(std::string(name.substr(0, name.size() - suffix.size())));
    if (base != index_.end() && owns(exposition_.families[base->second], name)) return base->second;
  }
  const auto exact = index_.find(std::string(name));
  if (exact == index_.end()) return family_for_declaration(name);
  if (owns(exposition_.families[exact->second], name)) return exact->second;
  return std::nullopt;
}

std::optional<Refusal> Builder::add_sample(LineReader& reader) {
  Sample sample;
  sample.name = std::string(reader.metric_name());
  if (sample.name.empty()) return Refusal{"a sample line must start with a valid metric name"};
  const bool blank_after_name = reader.skip_blanks();
  if (reader.consume('{')) {
    if (auto refusal = read_labels(reader, sample)) return refusal;
    reader.skip_blanks();
  } else if (!blank_after_name && !reader.at_end()) {
    return Refusal{"unexpected character after metric name " + quoted_name(sample.name)};
  }
  if (auto refusal = read_value(reader, sample)) return refusal;

  if (++samples_ > limits_.max_samples) {
    return Refusal{"more than " + std::to_string(limits_.max_samples) + " samples"};
  }
  const auto position = family_for_sample(sample.name);
  if (!position) {
    const Family& clash = exposition_.families[index_.at(sample.name)];
    return Refusal{"sample " + quoted_name(sample.name) + " does not fit " +
                   std::string(to_string(clash.type)) + " " + quoted_name(clash.name)};
  }
  Family& family = exposition_.families[*position];
  if (auto refusal = check_required_label(family, sample)) return refusal;
  states_[*position].has_samples = true;
  current_ = position;
  family.samples.push_back(std::move(sample));
  return std::nullopt;
}

std::optional<Refusal> Builder::read_labels(LineReader& reader, Sample& sample) {
  for (;;) {
    reader.skip_blanks();
    if (reader.consume('}')) return std::nullopt;
    const std::string_view name = reader.label_name();
    if (name.empty())
      return Refusal{"expected a label name in the labels of " + quoted_name(sample.name)};
    if (sample.label(name) != nullptr) {
      return Refusal{"label " + quoted_name(name) + " given twice in " + quoted_name(sample.name)};
    }
    if (sample.labels.size() == limits_.max_labels_per_sample) {
      return Refusal{"more than " + std::to_string(limits_.max_labels_per_sample) + " labels on " +
                     quoted_name(sample.name)};
    }
    reader.skip_blanks();
    if (!reader.consume('=')) return Refusal{"expected '=' after label name " + quoted_name(name)};
    reader.skip_blanks();
    if (!reader.consume('"'))
      return Refusal{"expected '\"' to open the value of label " + quoted_name(name)};
    std::string error;
    auto value = reader.quoted_label_value(error);
    if (!value) return Refusal{error + " (label " + quoted_name(name) + ")"};
    sample.labels.push_back(Label{std::string(name), std::move(*value)});
    reader.skip_blanks();
    if (reader.consume('}')) return std::nullopt;
    if (!reader.consume(','))
      return Refusal{"expected ',' or '}' after label " + quoted_name(name)};
  }
}

std::optional<Refusal> Builder::read_value(LineReader& reader, Sample& sample) {
  const auto value = detail::parse_float(reader.token());
  if (!value) return Refusal{"sample " + quoted_name(sample.name) + " has no valid value"};
  sample.value = *value;
  reader.skip_blanks();
  if (reader.at_end()) return std::nullopt;
  const auto timestamp_ms = detail::parse_timestamp_ms(reader.token());
  reader.skip_blanks();
  if (!timestamp_ms || !reader.at_end()) {
    return Refusal{"sample " + quoted_name(sample.name) +
                   " has text after its value that is not a timestamp in milliseconds"};
  }
  sample.timestamp_ms = timestamp_ms;
  return std::nullopt;
}

}  // namespace

std::string_view to_string(MetricType type) {
  switch (type) {
    case MetricType::counter: return "counter";
    case MetricType::gauge: return "gauge";
    case MetricType::histogram: return "histogram";
    case MetricType::summary: return "summary";
    case MetricType::untyped: return "untyped";
  }
  return "untyped";
}

const std::string* Sample::label(std::string_view label_name) const {
  for (const Label& each : labels) {
    if (each.name == label_name) return &each.value;
  }
  return nullptr;
}

const Family* Exposition::family(std::string_view name) const {
  for (const Family& candidate : families) {
    if (candidate.name == name) return &candidate;
  }
  return nullptr;
}

std::size_t Exposition::sample_count() const {
  std::size_t count = 0;
  for (const Family& family : families) count += family.samples.size();
  return count;
}

std::string ParseError::describe() const {
  if (line == 0) return message;
  return "line " + std::to_string(line) + ": " + message;
}

ParseResult parse_exposition(std::string_view body, const Limits& limits) {
  ParseResult result;
  if (body.size() > limits.max_bytes) {
    result.error =
        ParseError{0, "the body is " + std::to_string(body.size()) + " bytes, beyond the cap of " +
                          std::to_string(limits.max_bytes)};
    return result;
  }
  Builder builder(limits);
  std::size_t line_number = 0;
  while (!body.empty()) {
    ++line_number;
    const std::size_t end = body.find('\n');
    std::string_view line = body.substr(0, end);
    body.remove_prefix(end == std::string_view::npos ? body.size() : end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > limits.max_line_bytes) {
      result.error = ParseError{
          line_number, "line longer than " + std::to_string(limits.max_line_bytes) + " bytes"};
      return result;
    }
    if (auto refusal = builder.add_line(line)) {
      result.error = ParseError{line_number, std::move(refusal->message)};
      return result;
    }
  }
  result.exposition = builder.take();
  return result;
}

}  // namespace bench::server_metrics
