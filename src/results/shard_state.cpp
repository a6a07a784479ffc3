#include "bench/results/shard_state.hpp"

#include <cmath>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "bench/metrics/error_class.hpp"
#include "bench/util/clock.hpp"

namespace bench::results {

namespace {

using nlohmann::json;

json optional_ns(const std::optional<std::int64_t>& ns) { return ns ? json(*ns) : json(nullptr); }

// Milliseconds between two nanosecond times, rounded to the microsecond.
json lag_ms(std::optional<std::int64_t> from_ns, std::optional<std::int64_t> to_ns) {
  if (!from_ns || !to_ns) return nullptr;
  return ns_to_ms_rounded_to_us(*to_ns - *from_ns);
}

json optional_number(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

std::optional<double> number_or_none(const json& value) {
  if (value.is_null()) return std::nullopt;
  return value.get<double>();
}

json options_json(const metrics::SummaryOptions& options) {
  return {{"origin_ns", options.origin_ns},
          {"target_in_flight", options.target_in_flight},
          {"timeline_bucket_ns", options.timeline_bucket_ns},
          {"sample_budget", options.sample_budget},
          {"slo",
           {{"ttft_ms", optional_number(options.slo.ttft_ms)},
            {"tpot_ms", optional_number(options.slo.tpot_ms)},
            {"e2e_ms", optional_number(options.slo.e2e_ms)}}}};
}

metrics::SummaryOptions options_from(const json& in) {
  metrics::SummaryOptions options;
  options.origin_ns = in.at("origin_ns").get<std::int64_t>();
  options.target_in_flight = in.at("target_in_flight").get<std::int64_t>();
  options.timeline_bucket_ns = in.at("timeline_bucket_ns").get<std::int64_t>();
  options.sample_budget = in.at("sample_budget").get<std::uint64_t>();
  const json& slo = in.at("slo");
  options.slo.ttft_ms = number_or_none(slo.at("ttft_ms"));
  options.slo.tpot_ms = number_or_none(slo.at("tpot_ms"));
  options.slo.e2e_ms = number_or_none(slo.at("e2e_ms"));
  return options;
}

json counts_json(const metrics::RunSummary& s) {
  json out = json::object();
  metrics::visit_counters([&out](const char* name, std::int64_t value) { out[name] = value; }, s);
  out["chunks_differ_from_tokens"] = s.chunks_differ_from_tokens;
  out["itl_estimated"] = s.itl_estimated;
  json errors = json::object();
  for (const auto& [error, summary] : s.errors) {
    errors[std::string(metrics::error_class_name(error))] = {{"count", summary.count},
                                                             {"samples", summary.samples}};
  }
  out["errors"] = errors;
  return out;
}

metrics::RunSummary counts_from(const json& in) {
  metrics::RunSummary s;
  metrics::visit_counters(
      [&in](const char* name, std::int64_t& value) { value = in.at(name).get<std::int64_t>(); }, s);
  s.chunks_differ_from_tokens = in.at("chunks_differ_from_tokens").get<bool>();
  s.itl_estimated = in.at("itl_estimated").get<bool>();
  for (const auto& [name, summary] : in.at("errors").items()) {
    const std::optional<metrics::ErrorClass> error = metrics::error_class_from_name(name);
    if (!error) throw std::invalid_argument("unknown error class '" + name + "'");
    s.errors[*error] = {summary.at("count").get<std::int64_t>(),
                        summary.at("samples").get<std::vector<std::string>>()};
  }
  return s;
}

// Buckets as [octave, sub_bucket, count], the octave negated for negative values (octaves of
// finite non-zero values are >= 1, so the sign is never ambiguous).
json histogram_json(const metrics::HistogramState& h) {
  json buckets = json::array();
  for (const metrics::HistogramState::Bucket& b : h.buckets) {
    buckets.push_back({b.negative ? -b.octave : b.octave, b.sub_bucket, b.count});
  }
  json out = {{"buckets", buckets}};
  metrics::HistogramState::visit_stats([&out](const char* name, auto value) { out[name] = value; },
                                       h);
  return out;
}

metrics::HistogramState histogram_from(const json& in) {
  metrics::HistogramState h;
  metrics::HistogramState::visit_stats(
      [&in](const char* name, auto& value) {
        value = in.at(name).get<std::remove_reference_t<decltype(value)>>();
      },
      h);
  for (const json& bucket : in.at("buckets")) {
    const int octave = bucket.at(0).get<int>();
    h.buckets.push_back({octave < 0, std::abs(octave), bucket.at(1).get<std::uint32_t>(),
                         bucket.at(2).get<std::uint64_t>()});
  }
  return h;
}

json distribution_json(const metrics::DistributionState& d) {
  json out = {{"exact", d.exact}, {"rejected", d.rejected}};
  if (d.exact) {
    out["samples"] = d.samples;
  } else {
    out["histogram"] = histogram_json(d.histogram);
  }
  return out;
}

metrics::DistributionState distribution_from(const json& in) {
  metrics::DistributionState d;
  d.exact = in.at("exact").get<bool>();
  d.rejected = in.at("rejected").get<std::uint64_t>();
  if (d.exact) {
    d.samples = in.at("samples").get<std::vector<double>>();
  } else {
    d.histogram = histogram_from(in.at("histogram"));
  }
  return d;
}

// Steps as [started, finished, completed, errors, output_tokens, input_tokens].
json timeline_json(const metrics::TimelineState& t) {
  json steps = json::array();
  for (const metrics::TimelineStep& s : t.steps) {
    json step = json::array();
    metrics::TimelineStep::visit(
        [&step](const char*, std::int64_t value) { step.push_back(value); }, s);
    steps.push_back(std::move(step));
  }
  return {{"origin_ns", t.origin_ns}, {"step_ns", t.step_ns}, {"steps", steps}};
}

metrics::TimelineState timeline_from(const json& in) {
  metrics::TimelineState t;
  t.origin_ns = in.at("origin_ns").get<std::int64_t>();
  t.step_ns = in.at("step_ns").get<std::int64_t>();
  for (const json& s : in.at("steps")) {
    const auto v = s.get<std::vector<std::int64_t>>();
    metrics::TimelineStep step;
    std::size_t next = 0;
    metrics::TimelineStep::visit(
        [&v, &next](const char*, std::int64_t& value) {
          value = next < v.size() ? v[next] : 0;
          ++next;
        },
        step);
    if (v.size() != next) {
      throw std::invalid_argument(fmt::format("a timeline step needs {} counts", next));
    }
    t.steps.push_back(step);
  }
  return t;
}

// The state's "sums": the run's first start and last end, then its RunSums (run_sums.hpp).
template <typename State, typename Visit>
void visit_sums(State& s, Visit&& visit) {
  visit("first_start_ns", s.first_start_ns);
  visit("last_end_ns", s.last_end_ns);
  metrics::RunSums::visit(visit, s.sums);
}

// Another version is refused by name, not read as far as it goes: a key it lacks cannot be
// added up as 0 (kShardStateVersion says why).
void check_state_version(const json& in) {
  const json& version = in.at("version");
  if (version == kShardStateVersion) return;
  const bool older = version.is_number_integer() && version.get<int>() < kShardStateVersion;
  throw std::invalid_argument(
      fmt::format("version {}, written by {} bench; this bench reads version {}: run every shard "
                  "with the bench that merges them",
                  version.dump(), older ? "an older" : "another", kShardStateVersion));
}

metrics::AccumulatorState state_from(const json& in) {
  check_state_version(in);
  metrics::AccumulatorState state;
  state.options = options_from(in.at("options"));
  state.counts = counts_from(in.at("counts"));
  const json& sums = in.at("sums");
  visit_sums(state, [&sums](std::string_view name, auto& value) {
    value = sums.at(name).get<std::remove_reference_t<decltype(value)>>();
  });
  const json& distributions = in.at("distributions");
  for (std::size_t i = 0; i < state.distributions.size(); ++i) {
    state.distributions[i] =
        distribution_from(distributions.at(metrics::kAccumulatorDistributions[i]));
  }
  state.timeline = timeline_from(in.at("timeline"));
  return state;
}

// The session counts of a multi-turn state, by name: the one list both ways use.
template <typename State, typename Visit>
void visit_sessions(State& s, Visit&& visit) {
  metrics::SessionCounts::visit(s.sessions, visit);
}

json turn_json(const metrics::MultiTurnState::Turn& turn) {
  return {{"requests", turn.requests},
          {"completed", turn.completed},
          {"input_tokens_sum", turn.input_tokens_sum},
          {"input_tokens_known", turn.input_tokens_known},
          {"cached_tokens_sum", turn.cached_tokens_sum},
          {"computed_tokens_sum", turn.computed_tokens_sum},
          {"cache_known", turn.cache_known},
          {"ttft_ms", distribution_json(turn.ttft_ms)}};
}

// The prompt-cache sums came after the first multi-turn shards: a shard without them said none.
metrics::MultiTurnState::Turn turn_from(const json& in) {
  return {in.at("requests").get<std::int64_t>(),   in.at("completed").get<std::int64_t>(),
          in.at("input_tokens_sum").get<double>(), in.at("input_tokens_known").get<std::int64_t>(),
          distribution_from(in.at("ttft_ms")),     in.value("cached_tokens_sum", 0.0),
          in.value("computed_tokens_sum", 0.0),    in.value("cache_known", std::int64_t{0})};
}

json band_json(const metrics::MultiTurnState::Band& band) {
  return {{"completed", band.completed},
          {"input_tokens_sum", band.input_tokens_sum},
          {"cached_tokens_sum", band.cached_tokens_sum},
          {"computed_tokens_sum", band.computed_tokens_sum},
          {"cache_known", band.cache_known},
          {"ttft_ms", distribution_json(band.ttft_ms)}};
}

metrics::MultiTurnState::Band band_from(const json& in) {
  return {in.at("completed").get<std::int64_t>(),   in.at("input_tokens_sum").get<double>(),
          in.at("cached_tokens_sum").get<double>(), in.at("computed_tokens_sum").get<double>(),
          in.at("cache_known").get<std::int64_t>(), distribution_from(in.at("ttft_ms"))};
}

metrics::MultiTurnState multi_turn_from(const json& in) {
  check_state_version(in);
  metrics::MultiTurnState state;
  for (const json& turn : in.at("turns")) state.turns.push_back(turn_from(turn));
  if (const auto bands = in.find("context_bands"); bands != in.end()) {
    for (const json& band : *bands) state.bands.push_back(band_from(band));
  }
  const json& sessions = in.at("sessions");
  visit_sessions(state, [&sessions](std::string_view name, std::int64_t& value) {
    value = sessions.at(name).get<std::int64_t>();
  });
  state.session_duration_ms = distribution_from(in.at("session_duration_ms"));
  return state;
}

}  // namespace

json shard_to_json(const ShardStamp& s) {
  return {{key::shard_index, s.index},
          {key::shard_count, s.count},
          {key::host, s.host},
          {key::start_at, s.start_at.empty() ? json(nullptr) : json(s.start_at)},
          {key::start_at_unix_ns, optional_ns(s.start_at_unix_ns)},
          {key::epoch_unix_ns, s.epoch_unix_ns},
          {key::epoch_steady_ns, s.epoch_steady_ns},
          {key::start_lag_ms, lag_ms(s.start_at_unix_ns, s.epoch_unix_ns)},
          {key::first_send_ms, lag_ms(0, s.first_send_ns)},
          {key::first_send_lag_ms,
           s.first_send_ns ? lag_ms(s.start_at_unix_ns, s.epoch_unix_ns + *s.first_send_ns)
                           : json(nullptr)}};
}

std::variant<ShardStamp, FormatError> shard_from_json(const json& run, std::string_view name) {
  try {
    const json& in = run.at(key::shard);
    ShardStamp s;
    s.index = in.at(key::shard_index).get<std::int64_t>();
    s.count = in.at(key::shard_count).get<std::int64_t>();
    s.host = in.at(key::host).get<std::string>();
    if (!in.at(key::start_at).is_null()) s.start_at = in.at(key::start_at).get<std::string>();
    if (!in.at(key::start_at_unix_ns).is_null()) {
      s.start_at_unix_ns = in.at(key::start_at_unix_ns).get<std::int64_t>();
    }
    s.epoch_unix_ns = in.at(key::epoch_unix_ns).get<std::int64_t>();
    s.epoch_steady_ns = in.at(key::epoch_steady_ns).get<std::int64_t>();
    if (!in.at(key::first_send_ms).is_null()) {
      s.first_send_ns = ms_to_ns_rounded(in.at(key::first_send_ms).get<double>());
    }
    if (s.count < 1 || s.index < 0 || s.index >= s.count) {
      throw std::invalid_argument(fmt::format("shard {}/{} is no shard", s.index, s.count));
    }
    return s;
  } catch (const std::exception& error) {
    return FormatError{
        fmt::format("{}: not a shard's results (\"shard\": {})", name, error.what())};
  }
}

json accumulator_to_json(const metrics::AccumulatorState& state) {
  json sums = json::object();
  visit_sums(state, [&sums](std::string_view name, const auto& value) { sums[name] = value; });
  json distributions = json::object();
  for (std::size_t i = 0; i < state.distributions.size(); ++i) {
    distributions[metrics::kAccumulatorDistributions[i]] =
        distribution_json(state.distributions[i]);
  }
  return {{"version", kShardStateVersion},       {"options", options_json(state.options)},
          {"counts", counts_json(state.counts)}, {"sums", sums},
          {"distributions", distributions},      {"timeline", timeline_json(state.timeline)}};
}

std::variant<metrics::AccumulatorState, FormatError> accumulator_from_json(const json& run,
                                                                           std::string_view name) {
  try {
    return state_from(run.at(key::shard_state));
  } catch (const std::exception& error) {
    return FormatError{fmt::format("{}: unreadable \"shard_state\" ({})", name, error.what())};
  }
}

json multi_turn_state_to_json(const metrics::MultiTurnState& state) {
  json turns = json::array();
  for (const metrics::MultiTurnState::Turn& turn : state.turns) turns.push_back(turn_json(turn));
  json sessions = json::object();
  visit_sessions(
      state, [&sessions](std::string_view name, std::int64_t value) { sessions[name] = value; });
  json bands = json::array();
  for (const metrics::MultiTurnState::Band& band : state.bands) bands.push_back(band_json(band));
  return {{"version", kShardStateVersion},
          {"turns", turns},
          {"context_bands", bands},
          {"sessions", sessions},
          {"session_duration_ms", distribution_json(state.session_duration_ms)}};
}

std::variant<metrics::MultiTurnState, FormatError> multi_turn_state_from_json(
    const json& multi_turn, std::string_view name) {
  try {
    return multi_turn_from(multi_turn.at(key::shard_state));
  } catch (const std::exception& error) {
    return FormatError{
        fmt::format("{}: unreadable \"multi_turn\" \"shard_state\" ({})", name, error.what())};
  }
}

}  // namespace bench::results
