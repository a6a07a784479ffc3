#include "bench/merge/merge.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "bench/metrics/accumulator_state.hpp"
#include "bench/results/answer_check.hpp"
#include "bench/results/format.hpp"
#include "bench/results/lengths.hpp"
#include "bench/results/provenance.hpp"
#include "bench/results/shard_state.hpp"
#include "bench/util/clock.hpp"
#include "multi_turn_merge.hpp"
#include "per_server_merge.hpp"
#include "shard_checks.hpp"

namespace bench::merge {

namespace {

using nlohmann::json;

struct ShardPart {
  results::ShardStamp stamp;
  metrics::AccumulatorState state;
};

std::variant<std::vector<ShardPart>, MergeError> read_parts(const std::vector<ShardFile>& shards,
                                                            const std::vector<const json*>& runs) {
  std::vector<ShardPart> parts;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    auto stamp = results::shard_from_json(*runs[i], shards[i].name);
    if (auto* error = std::get_if<results::FormatError>(&stamp)) return MergeError{error->message};
    auto state = results::accumulator_from_json(*runs[i], shards[i].name);
    if (auto* error = std::get_if<results::FormatError>(&state)) return MergeError{error->message};
    parts.push_back({std::move(std::get<results::ShardStamp>(stamp)),
                     std::move(std::get<metrics::AccumulatorState>(state))});
  }
  return parts;
}

// The raw values the shards could keep, together: the whole's budget.
std::uint64_t shards_sample_budget(const std::vector<ShardPart>& parts) {
  std::uint64_t budget = 0;
  for (const ShardPart& part : parts) budget += part.state.options.sample_budget;
  return budget;
}

// Every shard's accumulator on the clock of the earliest epoch, merged as threads' are. The
// whole's budget is the shards' together, so it stays exact when each of them was.
std::variant<metrics::RunSummary, MergeError> merge_accumulators(
    const std::vector<ShardFile>& shards, const std::vector<ShardPart>& parts) {
  metrics::SummaryOptions options = parts.front().state.options;
  options.target_in_flight = 0;
  options.sample_budget = shards_sample_budget(parts);
  std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
  for (const ShardPart& part : parts) {
    options.target_in_flight += part.state.options.target_in_flight;
    earliest = std::min(earliest, part.stamp.epoch_unix_ns);
  }
  metrics::RunAccumulator whole(options);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::optional<metrics::RunAccumulator> part = metrics::RunAccumulator::from_state(
        parts[i].state, parts[i].stamp.epoch_unix_ns - earliest);
    if (!part) {
      return MergeError{fmt::format("{}: \"shard_state\" holds an invalid histogram or timeline",
                                    shards[i].name)};
    }
    whole.merge(std::move(*part));
  }
  return whole.summarize();
}

double number_in(const json& object, std::string_view key) {
  return results::number_at(object, key).value_or(0);
}

// The client's figures over all shards: their threads and CPU added up, the busiest and the
// largest of the rest, their warnings each said with its shard.
results::ClientCheck merged_client(const std::vector<const json*>& runs,
                                   const std::vector<ShardPart>& parts) {
  results::ClientCheck check;
  check.load.threads = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const json client = runs[i]->value("client", json::object());
    metrics::ClientLoad& load = check.load;
    load.threads += static_cast<std::size_t>(number_in(client, "threads"));
    load.cpu_s += number_in(client, "cpu_s");
    load.wall_s = std::max(load.wall_s, number_in(client, "wall_s"));
    load.busiest_thread_utilization =
        std::max(load.busiest_thread_utilization, number_in(client, "busiest_thread_utilization"));
    load.busiest_thread_demand =
        std::max(load.busiest_thread_demand, number_in(client, "busiest_thread_demand"));
    // Every shard's wait for a CPU, or unknown when one did not say.
    const std::optional<double> waited_ms = results::number_at(client, "run_queue_wait_ms");
    if (i == 0 && waited_ms) load.run_queue_wait_s = 0;
    if (waited_ms && load.run_queue_wait_s) {
      *load.run_queue_wait_s += ms_to_s(*waited_ms);
    } else {
      load.run_queue_wait_s.reset();
    }
    load.peak_rss_bytes =
        std::max(load.peak_rss_bytes,
                 static_cast<std::int64_t>(number_in(client, "peak_rss_mb") * (1 << 20)));
    const json preconnect = client.value("preconnect", json::object());
    load.preconnect_requested += static_cast<std::int64_t>(number_in(preconnect, "requested"));
    load.preconnect_opened += static_cast<std::int64_t>(number_in(preconnect, "opened"));
    load.preconnect_failed += static_cast<std::int64_t>(number_in(preconnect, "failed"));
    load.preconnect_s += ms_to_s(number_in(preconnect, "took_ms"));
    const json late_wakes = client.value("late_wakes", json::object());
    load.timer_wakes += static_cast<std::int64_t>(number_in(late_wakes, "sleeps"));
    load.late_timer_wakes += static_cast<std::int64_t>(number_in(late_wakes, "over_1ms"));
    load.latest_timer_wake_ns =
        std::max(load.latest_timer_wake_ns, ms_to_ns_truncated(number_in(late_wakes, "latest_ms")));
    const json reuse = client.value("connection_reuse", json::object());
    load.server_prompt_closes +=
        static_cast<std::int64_t>(number_in(reuse, "server_closes_after_response"));
    if (reuse.value("stopped", false)) {
      load.reuse_stopped_after_closes = static_cast<std::int64_t>(
          std::max(1.0, number_in(reuse, "stopped_after_closes_in_a_row")));
      load.reuse_stopped_close_ns =
          std::max(load.reuse_stopped_close_ns,
                   ms_to_ns_truncated(number_in(reuse, "stopping_close_within_ms")));
    }
    check.saturated = check.saturated || runs[i]->value(results::key::client_saturated, false);
    check.host_late = check.host_late || runs[i]->value(results::key::host_late, false);
    for (const json& warning : client.value("warnings", json::array())) {
      check.warnings.push_back(
          fmt::format("shard {}: {}", parts[i].stamp.index, warning.get<std::string>()));
    }
  }
  return check;
}

std::string text_in(const json& object, std::string_view key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : "";
}

// The context the reports are written with, read back from the first shard's run object; the
// load is the whole's (the shards' concurrency added up), the start the earliest.
results::RunContext merged_context(const std::vector<const json*>& runs,
                                   const std::vector<ShardPart>& parts) {
  const json& first = *runs.front();
  results::RunContext c;
  c.base_url = text_in(first, "base_url");
  c.embedded_server = first.value("embedded_server", false);
  c.simulator = first.value("simulator", json());
  // Each shard checked the answers itself: the first shard's check, or the first implausible.
  c.answer_check = first.value(results::key::answer_check, json());
  for (const json* run : runs) {
    const json check = run->value(results::key::answer_check, json());
    if (results::answer_check_implausible(check) &&
        !results::answer_check_implausible(c.answer_check)) {
      c.answer_check = check;
    }
  }
  c.endpoint = text_in(first, "endpoint");
  c.model = text_in(first, "model");
  c.concurrency = 0;
  c.started_at = text_in(first, "started_at");
  for (const json* run : runs) {
    // The shards' caps add up; a shard without one (null: an open loop) leaves the whole none.
    const std::optional<double> cap = results::number_at(*run, results::key::max_concurrency);
    if (!cap) c.concurrency = std::nullopt;
    if (cap && c.concurrency) *c.concurrency += static_cast<std::int64_t>(*cap);
    c.interrupted = c.interrupted || run->value("interrupted", false);
    const std::string started = text_in(*run, "started_at");
    if (!started.empty() && started < c.started_at) c.started_at = started;  // ISO 8601 UTC
  }
  c.request_rate = results::number_at(first, results::key::request_rate)
                       .value_or(std::numeric_limits<double>::infinity());
  if (!first.value("ramp_up_strategy", json()).is_null()) {
    c.ramp_up_strategy = text_in(first, "ramp_up_strategy");
    c.ramp_up_start_rps = number_in(first, "ramp_up_start_rps");
    c.ramp_up_end_rps = number_in(first, "ramp_up_end_rps");
  }
  c.config = first.value(results::key::config, json::object());
  c.config["shard_index"] = nullptr;
  c.num_prompts = static_cast<std::int64_t>(number_in(c.config, "num_prompts"));
  c.input_len = static_cast<std::int64_t>(number_in(c.config, "input_len"));
  c.output_len = static_cast<std::int64_t>(number_in(c.config, "output_len"));
  if (const std::string unit = text_in(first, "input_len_unit"); !unit.empty()) {
    c.input_len_unit = unit;
  }
  // Files before prompts_share_prefixes was written: a shared-prefix dataset said it.
  c.prompts_share_prefixes = first.value(results::key::prompts_share_prefixes,
                                         text_in(c.config, "dataset") == "shared-prefix");
  c.prompts_from_trace = text_in(c.config, "dataset") == "trace";
  c.prompts_reused = first.value(results::key::reused_prompts, false);
  c.prompts_resend_history = first.contains(results::key::multi_turn);
  c.prefix_share = results::number_at(first, results::key::prefix_share);  // one command's
  // --gpus and --gpu-hour-price, as every shard recorded them (one command ran them all).
  const json gpus = c.config.value(results::key::gpus, json());
  const json price = c.config.value(results::key::gpu_hour_price, json());
  if (gpus.is_number_integer()) c.accelerators.gpus = gpus.get<std::int64_t>();
  if (price.is_number()) c.accelerators.gpu_hour_usd = price.get<double>();
  c.client = merged_client(runs, parts);
  c.provenance = results::merge_provenance(runs);
  return c;
}

// The shards' start: how far apart their clocks started, and their latest first send.
json merged_stamp(const std::vector<ShardPart>& parts, std::vector<std::string>& warnings) {
  std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
  std::int64_t latest = std::numeric_limits<std::int64_t>::min();
  std::optional<double> max_lag_ms;
  std::set<std::string> hosts;
  for (const ShardPart& part : parts) {
    earliest = std::min(earliest, part.stamp.epoch_unix_ns);
    latest = std::max(latest, part.stamp.epoch_unix_ns);
    hosts.insert(part.stamp.host);
    const json lag = results::shard_to_json(part.stamp)[results::key::first_send_lag_ms];
    if (lag.is_number())
      max_lag_ms = std::max(max_lag_ms.value_or(lag.get<double>()), lag.get<double>());
  }
  const double spread_ms = ns_to_ms_rounded_to_us(latest - earliest);
  if (spread_ms > kStartSpreadLimitMs) {
    warnings.push_back(fmt::format(
        "the shards started {:.1f} ms apart (more than {:g} ms): the merged window is wider than "
        "each shard's, so throughput reads low; start them together with --start-at",
        spread_ms, kStartSpreadLimitMs));
  }
  return {{results::key::shards, parts.size()},
          {results::key::hosts, hosts},
          {results::key::start_spread_ms, spread_ms},
          {results::key::start_spread_limit_ms, kStartSpreadLimitMs},
          {results::key::max_first_send_lag_ms, results::known_or_null(max_lag_ms)}};
}

// The sum of a count every shard records; null when one does not know it.
json shards_sum(const std::vector<const json*>& runs, std::string_view key) {
  std::optional<double> sum = 0;
  for (const json* run : runs) {
    const std::optional<double> own = results::number_at(*run, key);
    sum = own && sum ? std::optional(*sum + *own) : std::nullopt;
  }
  return sum ? json(static_cast<std::int64_t>(*sum)) : json(nullptr);
}

// The keys a point's report adds beside to_json's that are the shards' together: per-chunk
// usage seen by any, the server's /tokenize requests of all (null when one does not know), the
// longest of their times making prompts ahead (they made them at once), and how lengths were
// counted, as the first shard says (one command ran them all).
void add_up_shard_keys(json& merged, const std::vector<const json*>& runs) {
  bool per_chunk_usage = false;
  std::optional<double> ahead_s;
  for (const json* run : runs) {
    per_chunk_usage = per_chunk_usage || run->value("per_chunk_usage", false);
    if (const auto own = results::number_at(*run, results::key::prompts_ahead_s)) {
      ahead_s = std::max(ahead_s.value_or(*own), *own);
    }
  }
  merged["per_chunk_usage"] = per_chunk_usage;
  merged[results::key::server_tokenize_requests] =
      shards_sum(runs, results::key::server_tokenize_requests);
  merged[results::key::tokenize_requests_ahead] =
      shards_sum(runs, results::key::tokenize_requests_ahead);
  merged[results::key::prompts_ahead_s] = results::known_or_null(ahead_s);
  if (runs.empty()) return;
  for (const std::string_view key :
       {results::key::input_len_unit, results::key::length_tokenizer, results::key::words_reason}) {
    const std::string name(key);
    if (runs.front()->contains(name)) merged[name] = (*runs.front())[name];
  }
}

// Shards made by different builds or on different hosts: their figures may differ for that.
std::optional<std::string> provenance_warning(const json& provenance) {
  if (!provenance.is_object()) return std::nullopt;
  const json differ = provenance.value(results::key::shards_differ, json::array());
  if (differ.empty()) return std::nullopt;
  std::string items;
  for (const json& item : differ) items += (items.empty() ? "" : ", ") + item.get<std::string>();
  return fmt::format(
      "the shards were not all made alike: they differ in {} (provenance "
      "lists their values)",
      items);
}

struct PointMerge {
  json results;
  MergedRun run;
};

// Shards that scraped their GPUs' energy each did so over their own window of the same GPUs:
// the windows overlap, so neither their sum nor any one of them is the whole's energy, and the
// merged figures are null (unknown). Said rather than left as a silent null.
std::optional<std::string> energy_not_merged(const std::vector<const json*>& runs) {
  for (const json* run : runs) {
    const auto energy = run->find(results::key::gpu_energy_joules);
    if (energy != run->end() && energy->is_number()) {
      return "the GPUs' energy is not merged (each shard scraped the same GPUs over its own, "
             "overlapping window): the merged energy figures are null; each shard's file keeps "
             "its own";
    }
  }
  return std::nullopt;
}

std::variant<PointMerge, MergeError> merge_point(const std::vector<ShardFile>& shards,
                                                 const std::vector<const json*>& runs,
                                                 std::vector<std::string>& warnings) {
  if (auto error = check_shard_set(shards, runs)) return *error;
  if (auto error = check_same_benchmark(shards, runs)) return *error;
  auto read = read_parts(shards, runs);
  if (auto* error = std::get_if<MergeError>(&read)) return *error;
  const auto& parts = std::get<std::vector<ShardPart>>(read);
  auto summary = merge_accumulators(shards, parts);
  if (auto* error = std::get_if<MergeError>(&summary)) return *error;
  PointMerge out;
  out.run.summary = std::move(std::get<metrics::RunSummary>(summary));
  if (auto error =
          merge_multi_turn(shards, runs, shards_sample_budget(parts), out.run.summary.multi_turn)) {
    return *error;
  }
  out.run.context = merged_context(runs, parts);
  out.results = *runs.front();
  // The first shard's own figures; to_json writes the whole's multi_turn back.
  for (std::string_view key :
       {results::key::shard, results::key::shard_state, results::key::multi_turn}) {
    out.results.erase(std::string(key));
  }
  // Each shard scraped the same server over its own window: not a figure of the whole.
  out.results.erase("server_metrics");
  out.results.update(results::to_json(out.run.summary, out.run.context));
  add_up_shard_keys(out.results, runs);
  // --prefix-share: each shard primed the prefix itself; primed only if every shard did.
  if (out.results.contains(results::key::prefix_primed)) {
    for (const json* run : runs) {
      if (!run->value(results::key::prefix_primed, true))
        out.results[results::key::prefix_primed] = false;
    }
  }
  std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
  for (const ShardPart& part : parts) earliest = std::min(earliest, part.stamp.epoch_unix_ns);
  std::vector<std::int64_t> shifts_ns;
  for (const ShardPart& part : parts) shifts_ns.push_back(part.stamp.epoch_unix_ns - earliest);
  if (auto error =
          merge_per_server(shards, runs, shifts_ns, out.run.summary.duration_s, out.results)) {
    return *error;
  }
  std::vector<std::string> point_warnings;
  out.results[results::key::merged] = merged_stamp(parts, point_warnings);
  if (auto energy = energy_not_merged(runs)) point_warnings.push_back(std::move(*energy));
  if (auto differ = provenance_warning(out.run.context.provenance)) {
    point_warnings.push_back(std::move(*differ));
  }
  for (const std::string& warning : point_warnings) {
    out.results[results::key::warnings].push_back(warning);
    warnings.push_back(warning);
  }
  return out;
}

}  // namespace

std::variant<Merged, MergeError> merge_shards(const std::vector<ShardFile>& shards) {
  if (shards.empty()) return MergeError{"no shard files given"};
  auto by_point = runs_by_point(shards);
  if (auto* error = std::get_if<MergeError>(&by_point)) return *error;
  const auto& points = std::get<std::vector<std::vector<const json*>>>(by_point);
  Merged merged;
  std::vector<json> objects;
  for (const std::vector<const json*>& runs : points) {
    auto point = merge_point(shards, runs, merged.warnings);
    if (auto* error = std::get_if<MergeError>(&point)) return *error;
    objects.push_back(std::move(std::get<PointMerge>(point).results));
    merged.runs.push_back(std::move(std::get<PointMerge>(point).run));
  }
  if (!results::is_sweep(shards.front().results)) {
    merged.results = std::move(objects.front());
    return merged;
  }
  merged.results = shards.front().results;
  merged.results[results::key::points] = objects;
  merged.results[results::key::merged] = objects.front()[results::key::merged];
  // A sweep's check is its shard's at every point: the merged points' choice (merged_context) is
  // the whole's, not the first shard's own.
  merged.results[results::key::answer_check] =
      objects.front().value(results::key::answer_check, json());
  bool interrupted = false;
  for (const ShardFile& shard : shards) {
    interrupted = interrupted || shard.results.value("interrupted", false);
  }
  merged.results["interrupted"] = interrupted;
  return merged;
}

}  // namespace bench::merge
