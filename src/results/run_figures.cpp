// The run object's numeric figures, one row each (run_figures.hpp). Key names follow SGLang's
// bench_serving and vLLM's benchmark result files where they have one.
#include "run_figures.hpp"

#include <iterator>
#include <optional>
#include <string_view>
#include <utility>

#include "bench/results/efficiency.hpp"
#include "bench/results/format.hpp"
#include "bench/results/latency_figures.hpp"
#include "bench/results/run_metrics.hpp"

namespace bench::results {
namespace {

using metrics::Distribution;
using metrics::RunSummary;
using nlohmann::json;
using Rows = std::vector<RunFigure>;

// A catalogue row's {mean,median,std,p90,p95,p99,max}_<key>_ms (the SGLang/vLLM key layout):
// null, never 0, when the run does not know it.
void add_distribution(Rows& rows, const LatencyFigure& figure) {
  for (std::size_t i = 0; i < kDistributionStats.size(); ++i) {
    rows.push_back({distribution_key(kDistributionStats[i], figure.key),
                    [&figure, field = kDistributionStatFields[i]](const FigureInput& in) {
                      return is_known(figure, in.summary) ? stat(in.summary.*figure.values, field)
                                                          : json(nullptr);
                    },
                    figure.kind});
  }
}

// Some statistics of one distribution, under their own key names.
void add_stats(Rows& rows, Distribution RunSummary::*d,
               std::initializer_list<std::pair<const char*, double Distribution::*>> stats) {
  for (const auto& [key, field] : stats) {
    rows.push_back(
        {key, [d, field = field](const FigureInput& in) { return stat(in.summary.*d, field); }});
  }
}

// A count every run has, written as it is.
void add_count(Rows& rows, std::string_view key, std::int64_t RunSummary::*count) {
  rows.push_back(
      {std::string(key), [count](const FigureInput& in) { return json(in.summary.*count); }});
}

// A mean over the requests that gave a value: null when none did.
void add_mean(Rows& rows, std::string_view key, std::optional<double> RunSummary::*mean) {
  rows.push_back({std::string(key),
                  [mean](const FigureInput& in) { return known_or_null(in.summary.*mean); }});
}

void add_counts_and_throughput(Rows& rows) {
  rows.push_back({std::string(key::duration), [](const FigureInput& in) {
                    return json(finite_or_zero(in.summary.duration_s));
                  }});
  add_count(rows, key::sent, &RunSummary::sent);
  add_count(rows, key::completed, &RunSummary::completed);
  add_count(rows, key::failed, &RunSummary::failed);
  add_count(rows, key::cancelled, &RunSummary::cancelled);
  add_count(rows, "warmup_requests", &RunSummary::warmup_requests);
  add_count(rows, key::requests_not_streamed, &RunSummary::not_streamed);
  rows.push_back({"total_input_tokens", [](const FigureInput& in) {
                    return in.input_known ? json(in.summary.total_input_tokens) : json(nullptr);
                  }});
  add_count(rows, "total_output_tokens", &RunSummary::total_output_tokens);
  rows.push_back({std::string(key::request_throughput), [](const FigureInput& in) {
                    return json(finite_or_zero(in.summary.request_throughput));
                  }});
  rows.push_back({std::string(key::input_throughput), [](const FigureInput& in) {
                    return if_known(in.input_known, in.summary.input_throughput);
                  }});
  rows.push_back({std::string(key::output_throughput), [](const FigureInput& in) {
                    return json(finite_or_zero(in.summary.output_throughput));
                  }});
  // vLLM's result file (vllm/benchmarks/serve.py) names it total_token_throughput.
  rows.push_back(
      {std::string(key::total_throughput),
       [](const FigureInput& in) { return if_known(in.input_known, in.summary.total_throughput); },
       std::nullopt, "total_token_throughput"});
}

// The input tokens split into computed and cached. Totals and throughputs need every request's
// split, so they are null unless all disclosed it (never 0 or a part); the share is over the
// requests that disclosed, whose count stands beside it.
bool split_known(const FigureInput& in) {
  return in.input_known && in.summary.input_split.disclosure() == metrics::CacheDisclosure::all;
}

void add_input_split(Rows& rows) {
  rows.push_back({std::string(key::total_computed_input_tokens), [](const FigureInput& in) {
                    return split_known(in) ? json(in.summary.input_split.computed_tokens)
                                           : json(nullptr);
                  }});
  rows.push_back({std::string(key::total_cached_input_tokens), [](const FigureInput& in) {
                    return split_known(in) ? json(in.summary.input_split.cached_tokens)
                                           : json(nullptr);
                  }});
  rows.push_back({std::string(key::computed_input_throughput), [](const FigureInput& in) {
                    return if_known(split_known(in), in.summary.computed_input_throughput);
                  }});
  rows.push_back({std::string(key::cached_input_throughput), [](const FigureInput& in) {
                    return if_known(split_known(in), in.summary.cached_input_throughput);
                  }});
  rows.push_back({std::string(key::cached_input_share), [](const FigureInput& in) {
                    return known_or_null(cached_input_share(in.summary.input_split));
                  }});
  rows.push_back({std::string(key::input_split_disclosing_requests), [](const FigureInput& in) {
                    return json(in.summary.input_split.disclosing_requests);
                  }});
}

void add_concurrency(Rows& rows) {
  // SGLang's key for the Little's-law value.
  rows.push_back({"concurrency", [](const FigureInput& in) {
                    return json(finite_or_zero(in.summary.achieved_concurrency));
                  }});
  // No cap (an open loop or trace without --concurrency) is null, as vLLM writes it.
  rows.push_back({std::string(key::max_concurrency), [](const FigureInput& in) {
                    return in.context.concurrency ? json(*in.context.concurrency) : json(nullptr);
                  }});
}

// Connection, schedule and client lag, and the times from the intended start. Each statistic
// is null when its distribution has no values: connect times when no connection opened in the
// run (all pre-opened), lags when nothing was sent, the times from the intended start when no
// request completed.
void add_connections_and_lag(Rows& rows) {
  using D = Distribution;
  using S = RunSummary;
  add_count(rows, "connections_opened", &S::connections_opened);
  add_count(rows, "connection_retries", &S::connection_retries);
  add_stats(
      rows, &S::connect_ms,
      {{"mean_connect_ms", &D::mean}, {"p99_connect_ms", &D::p99}, {"max_connect_ms", &D::max}});
  add_stats(rows, &S::schedule_lag_ms,
            {{"mean_schedule_lag_ms", &D::mean},
             {"p99_schedule_lag_ms", &D::p99},
             {"max_schedule_lag_ms", &D::max}});
  add_stats(rows, &S::client_lag_ms,
            {{"mean_client_lag_ms", &D::mean},
             {"p99_client_lag_ms", &D::p99},
             {"max_client_lag_ms", &D::max}});
  add_stats(rows, &S::ttft_from_intended_ms,
            {{"median_ttft_from_intended_ms", &D::median}, {"p99_ttft_from_intended_ms", &D::p99}});
  add_stats(rows, &S::e2e_from_intended_ms,
            {{"median_e2e_latency_from_intended_ms", &D::median},
             {"p99_e2e_latency_from_intended_ms", &D::p99}});
}

// Chunks, lengths asked for and counted (means of no values are null, never 0), and the load.
void add_lengths_and_load(Rows& rows) {
  add_count(rows, "total_text_chunks", &RunSummary::total_text_chunks);
  add_count(rows, "requests_with_per_chunk_usage", &RunSummary::requests_with_per_chunk_usage);
  add_mean(rows, "mean_requested_input_len", &RunSummary::mean_requested_input_len);
  rows.push_back({std::string(key::mean_prompt_tokens), [](const FigureInput& in) {
                    return in.input_known ? known_or_null(in.summary.mean_prompt_tokens)
                                          : json(nullptr);
                  }});
  add_mean(rows, "mean_client_prompt_tokens", &RunSummary::mean_client_prompt_tokens);
  add_mean(rows, "mean_requested_output_len", &RunSummary::mean_requested_output_len);
  add_mean(rows, key::mean_completion_tokens, &RunSummary::mean_completion_tokens);
  // "inf" for a closed loop. With vLLM's ramp-up (vllm/benchmarks/serve.py writes
  // ramp_up_strategy, ramp_up_start_rps, ramp_up_end_rps) null: a ramp has no single rate and
  // is not a closed loop.
  rows.push_back({std::string(key::request_rate), [](const FigureInput& in) {
                    return ramp_up(in.context) ? json(nullptr)
                                               : rate_to_json(in.context.request_rate);
                  }});
  // Null without --goodput SLOs; vLLM's result file names it request_goodput.
  rows.push_back({"goodput",
                  [](const FigureInput& in) {
                    return in.summary.goodput_measured ? json(finite_or_zero(in.summary.goodput))
                                                       : json(nullptr);
                  },
                  std::nullopt, "request_goodput"});
  rows.push_back({"good_requests", [](const FigureInput& in) {
                    return in.summary.goodput_measured ? json(in.summary.good_requests)
                                                       : json(nullptr);
                  }});
}

// The output split into reasoning and answer: null, never 0, unless some request
// reasoned, since a server may reason without saying so.
void add_reasoning(Rows& rows) {
  rows.push_back({std::string(key::requests_with_reasoning), [](const FigureInput& in) {
                    return json(in.summary.reasoning.reasoning_requests);
                  }});
  rows.push_back({std::string(key::total_reasoning_tokens), [](const FigureInput& in) {
                    const metrics::ReasoningSplit& split = in.summary.reasoning;
                    return split.any() ? json(split.reasoning_tokens) : json(nullptr);
                  }});
  rows.push_back({std::string(key::total_answer_tokens), [](const FigureInput& in) {
                    const metrics::ReasoningSplit& split = in.summary.reasoning;
                    return split.any() ? json(split.answer_tokens) : json(nullptr);
                  }});
  rows.push_back({std::string(key::reasoning_output_throughput), [](const FigureInput& in) {
                    return if_known(in.summary.reasoning.any(),
                                    in.summary.reasoning_output_throughput);
                  }});
  rows.push_back({std::string(key::answer_output_throughput), [](const FigureInput& in) {
                    return if_known(in.summary.reasoning.any(),
                                    in.summary.answer_output_throughput);
                  }});
  rows.push_back({std::string(key::mean_reasoning_tokens), [](const FigureInput& in) {
                    return known_or_null(in.summary.reasoning.mean_reasoning_tokens());
                  }});
  rows.push_back({std::string(key::mean_answer_tokens), [](const FigureInput& in) {
                    return known_or_null(in.summary.reasoning.mean_answer_tokens());
                  }});
}

// The output's tool-call part: null, never 0, unless some request called a tool.
void add_tool_calls(Rows& rows) {
  rows.push_back({std::string(key::requests_with_tool_calls), [](const FigureInput& in) {
                    return json(in.summary.tool_calls.tool_call_requests);
                  }});
  rows.push_back({std::string(key::total_tool_calls), [](const FigureInput& in) {
                    const metrics::ToolCallSplit& split = in.summary.tool_calls;
                    return split.any() ? json(split.tool_calls) : json(nullptr);
                  }});
  rows.push_back({std::string(key::total_tool_call_tokens), [](const FigureInput& in) {
                    const metrics::ToolCallSplit& split = in.summary.tool_calls;
                    return split.any() ? json(split.tool_call_tokens) : json(nullptr);
                  }});
  rows.push_back({std::string(key::tool_call_output_share), [](const FigureInput& in) {
                    return known_or_null(in.summary.tool_calls.share_of_output());
                  }});
  rows.push_back({std::string(key::tool_call_output_throughput), [](const FigureInput& in) {
                    return if_known(in.summary.tool_calls.any(),
                                    in.summary.tool_call_output_throughput);
                  }});
  rows.push_back({std::string(key::mean_tool_call_tokens), [](const FigureInput& in) {
                    return known_or_null(in.summary.tool_calls.mean_tool_call_tokens());
                  }});
}

// Per GPU, per user, cost and energy (efficiency.hpp), each named by its kind: null when
// unknown (no --gpus, no --gpu-hour-price, an unknown input count, no TPOT, no energy counter
// scraped), never 0.
void add_efficiency(Rows& rows) {
  const std::pair<std::string_view, std::optional<double> Efficiency::*> figures[] = {
      {key::output_throughput_per_gpu, &Efficiency::output_per_gpu},
      {key::input_throughput_per_gpu, &Efficiency::input_per_gpu},
      {key::total_throughput_per_gpu, &Efficiency::total_per_gpu},
      {key::median_output_throughput_per_user, &Efficiency::median_output_per_user},
      {key::p10_output_throughput_per_user, &Efficiency::p10_output_per_user},
      {key::usd_per_million_output_tokens, &Efficiency::usd_per_million_output},
      {key::usd_per_million_input_tokens, &Efficiency::usd_per_million_input},
      {key::usd_per_million_total_tokens, &Efficiency::usd_per_million_total},
      {key::gpu_energy_joules, &Efficiency::gpu_energy_joules},
      {key::joules_per_output_token, &Efficiency::joules_per_output_token},
      {key::joules_per_total_token, &Efficiency::joules_per_total_token},
  };
  for (const auto& [name, field] : figures) {
    rows.push_back({std::string(name), [field = field](const FigureInput& in) {
                      return known_or_null(efficiency(in.summary, in.context).*field);
                    }});
  }
}

// Runs `add` and marks the rows it added as figures of kind `figure`.
template <typename Add>
void add_of_kind(Rows& rows, std::optional<metrics::Figure> figure, Add add) {
  const std::size_t first = rows.size();
  add(rows);
  for (std::size_t i = first; i < rows.size(); ++i) rows[i].figure = figure;
}

// Single rows of the groups above that are of a kind the rest of their group is not.
void mark_single_rows(Rows& rows) {
  const std::pair<std::string_view, metrics::Figure> kinds[] = {
      {"total_output_tokens", metrics::Figure::output_tokens},
      {key::output_throughput, metrics::Figure::output_tokens},
      {key::mean_completion_tokens, metrics::Figure::output_tokens},
      {"total_text_chunks", metrics::Figure::token_gaps},
      {"median_ttft_from_intended_ms", metrics::Figure::ttft},
      {"p99_ttft_from_intended_ms", metrics::Figure::ttft},
  };
  for (RunFigure& row : rows) {
    for (const auto& [key, figure] : kinds) {
      if (row.key == key) row.figure = figure;
    }
  }
}

Rows make_run_figures() {
  Rows rows;
  add_counts_and_throughput(rows);
  add_of_kind(rows, metrics::Figure::cached_input, add_input_split);
  add_concurrency(rows);
  for (const LatencyFigure& figure : latency_figures()) add_distribution(rows, figure);
  add_connections_and_lag(rows);
  add_lengths_and_load(rows);
  add_of_kind(rows, metrics::Figure::reasoning, add_reasoning);
  add_of_kind(rows, metrics::Figure::tool_calls, add_tool_calls);
  add_efficiency(rows);
  mark_single_rows(rows);
  return rows;
}

}  // namespace

json if_known(bool known, double value) {
  return known ? json(finite_or_zero(value)) : json(nullptr);
}

json stat(const Distribution& d, double Distribution::*field) {
  return known_or_null(metrics::known_stat(d, field));
}

bool ramp_up(const RunContext& context) {
  return context.ramp_up_strategy != "none" && !context.ramp_up_strategy.empty();
}

const std::vector<RunFigure>& run_figures() {
  static const Rows rows = make_run_figures();
  return rows;
}

const RunFigure* run_figure(std::string_view key) {
  for (const RunFigure& figure : run_figures()) {
    if (figure.key == key) return &figure;
  }
  return nullptr;
}

const RunFigure* vllm_run_figure(std::string_view vllm_name) {
  for (const RunFigure& figure : run_figures()) {
    const std::string_view name = figure.vllm_key.empty() ? figure.key : figure.vllm_key;
    if (name == vllm_name) return &figure;
  }
  return nullptr;
}

}  // namespace bench::results
