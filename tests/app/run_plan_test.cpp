// The run plan: the options, parsed as the command line gives them, become what each module
// takes (dataset, request, headers, engine, points, per-point plan and report context).
#include "bench/app/plan/run_plan.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench/cli/options.hpp"
#include "parse_run_options.hpp"

namespace {

using bench::app::LoadPoint;
using bench::app::plan_run;
using bench::app::PreparedRun;
using bench::app::RunPlan;
using bench::testing::parse_run_options;

TEST(RunPlan, DatasetFlagsReachTheDatasetWithTheRunsCountLengthsAndSeed) {
  const RunPlan plan = plan_run(parse_run_options(
      {"--dataset", "shared-prefix", "--prefix-groups", "2", "--questions-per-group", "3",
       "--input-len", "10", "--output-len", "5", "--seed", "7", "--warmup-requests", "2"}));
  EXPECT_EQ(plan.dataset.kind, bench::workload::DatasetKind::shared_prefix);
  EXPECT_EQ(plan.dataset.prefix_groups, 2);
  EXPECT_EQ(plan.dataset.count, std::optional<std::size_t>(2 + 2 * 3));  // warm-up + groups x q
  EXPECT_EQ(plan.dataset.input_len, 10);
  EXPECT_EQ(plan.dataset.output_len, 5);
  EXPECT_EQ(plan.dataset.seed, 7u);
}

TEST(RunPlan, ATimeBoundRunHasNoCountAndSendsFreshPrompts) {
  const RunPlan plan = plan_run(
      parse_run_options({"--duration", "5s", "--num-prompts", "30", "--warmup-requests", "4"}));
  EXPECT_EQ(plan.dataset.count, std::nullopt);
  EXPECT_EQ(plan.reuse_prompts_modulo, 0u);
}

TEST(RunPlan, ReusedPromptsAreAPointsPromptsOrATimedRunsNumPrompts) {
  EXPECT_EQ(plan_run(parse_run_options(
                         {"--num-prompts", "30", "--warmup-requests", "4", "--reuse-prompts"}))
                .reuse_prompts_modulo,
            34u);
  EXPECT_EQ(
      plan_run(parse_run_options({"--duration", "5s", "--num-prompts", "30", "--reuse-prompts"}))
          .reuse_prompts_modulo,
      30u);
}

TEST(RunPlan, EveryPointOfASweepHasAPromptStreamOfItsOwn) {
  const RunPlan plan = plan_run(parse_run_options({"--concurrency", "1,4,16"}));
  ASSERT_EQ(plan.points.size(), 3u);
  EXPECT_EQ(plan.points[0].prompt_stream, 0u);
  EXPECT_EQ(plan.points[1].prompt_stream, 1u);
  EXPECT_EQ(plan.points[2].prompt_stream, 2u);
}

TEST(RunPlan, WithoutSeedEachRunDrawsItsOwnAndWithSeedItIsKept) {
  const auto first = parse_run_options({"--num-prompts", "4"});
  const auto second = parse_run_options({"--num-prompts", "4"});
  EXPECT_FALSE(first.seed_given);
  // Two draws of 32 random bits: equal once in four billion runs.
  EXPECT_NE(first.seed, second.seed);
  EXPECT_EQ(parse_run_options({"--seed", "42"}).seed, 42u);
  EXPECT_TRUE(parse_run_options({"--seed", "42"}).seed_given);
}

TEST(RunPlan, TheOutputLengthIsWhatExtraBodySendsInsteadOfMaxTokens) {
  EXPECT_EQ(plan_run(parse_run_options({"--output-len", "16"})).output_len, 16);
  EXPECT_FALSE(plan_run(parse_run_options({"--output-len", "16"})).output_len_from_extra_body);
  const RunPlan plan = plan_run(parse_run_options(
      {"--output-len", "16", "--extra-body", R"({"max_tokens":3,"max_completion_tokens":9})"}));
  EXPECT_EQ(plan.output_len, 9);  // max_completion_tokens is the one servers honour
  EXPECT_TRUE(plan.output_len_from_extra_body);
}

TEST(RunPlan, RequestAndHeadersCarryTheEndpointKeyAndExtraHeaders) {
  const RunPlan plan = plan_run(parse_run_options(
      {"--endpoint", "completions", "--api-key", "k1", "--header", "X-A: 1", "--ignore-eos"}));
  EXPECT_EQ(plan.request.endpoint, bench::protocol::Endpoint::completions);
  EXPECT_TRUE(plan.request.ignore_eos);
  const std::vector<std::string> want = {"Content-Type: application/json",
                                         "Accept: text/event-stream, application/json",
                                         "Authorization: Bearer k1", "X-A: 1"};
  EXPECT_EQ(plan.headers, want);
}

TEST(RunPlan, EngineTimeoutsAreInMilliseconds) {
  const RunPlan plan = plan_run(
      parse_run_options({"--request-timeout", "2.5", "--connect-timeout", "1", "--ttft-timeout",
                         "0.25", "--stall-timeout", "3", "--grace", "0"}));
  EXPECT_EQ(plan.engine.request_timeout_ms, 2500);
  EXPECT_EQ(plan.engine.connect_timeout_ms, 1000);
  EXPECT_EQ(plan.engine.ttft_timeout_ms, 250);
  EXPECT_EQ(plan.engine.stall_timeout_ms, 3000);
  EXPECT_EQ(plan.engine.grace_ms, 0);
}

TEST(RunPlan, OneValueOfEachIsASingleRunAndAListIsASweepOverIt) {
  const RunPlan single = plan_run(parse_run_options({"--concurrency", "8"}));
  ASSERT_EQ(single.points.size(), 1u);
  EXPECT_EQ(single.sweep_variable, bench::app::SweepVariable::none);
  EXPECT_EQ(bench::app::point_label_text(single, single.points[0]), "");

  const RunPlan by_concurrency = plan_run(parse_run_options({"--concurrency", "1,8"}));
  ASSERT_EQ(by_concurrency.points.size(), 2u);
  EXPECT_EQ(by_concurrency.sweep_variable, bench::app::SweepVariable::concurrency);
  EXPECT_EQ(bench::app::point_label_text(by_concurrency, by_concurrency.points[1]), "c=8");
  EXPECT_EQ(bench::app::point_label(by_concurrency, by_concurrency.points[1]),
            nlohmann::json({{"concurrency", 8}}));

  const RunPlan by_rate = plan_run(parse_run_options({"--request-rate", "2,inf"}));
  ASSERT_EQ(by_rate.points.size(), 2u);
  EXPECT_EQ(by_rate.sweep_variable, bench::app::SweepVariable::request_rate);
  EXPECT_EQ(bench::app::point_label_text(by_rate, by_rate.points[0]), "rate=2");
  EXPECT_EQ(bench::app::point_label(by_rate, by_rate.points[1]),
            nlohmann::json({{"request_rate", "inf"}}));
}

TEST(RunPlan, AClosedLoopPointCountsItsMeasuredRequestsAndAnOpenOneFollowsItsSchedule) {
  const bench::cli::RunOptions options =
      parse_run_options({"--concurrency", "4", "--num-prompts", "12", "--warmup-requests", "3"});
  const RunPlan plan = plan_run(options);
  PreparedRun prepared;
  prepared.urls = {"http://127.0.0.1:1/v1/chat/completions"};
  const bench::app::PointPlan closed =
      bench::app::point_plan(plan, prepared, plan.points[0], nullptr);
  EXPECT_EQ(closed.engine.concurrency, 4);
  EXPECT_EQ(closed.measured_requests, 12u);
  EXPECT_EQ(closed.driver.per_prompt.warmup_requests, 3u);
  EXPECT_EQ(closed.driver.per_prompt.schedule, nullptr);
  EXPECT_EQ(closed.summary.target_in_flight, 4);
  EXPECT_EQ(closed.driver.target.headers, &plan.headers);

  const RunPlan at_rate = plan_run(
      parse_run_options({"--request-rate", "100", "--num-prompts", "2", "--warmup-requests", "1"}));
  const auto schedule = bench::schedule::build_open_loop_schedule(
      bench::app::open_loop_plan(at_rate, at_rate.points[0].rate_per_s));
  ASSERT_TRUE(schedule.has_value());
  EXPECT_TRUE(bench::app::open_loop(at_rate, at_rate.points[0]));
  EXPECT_FALSE(bench::app::open_loop(plan, plan.points[0]));
  const bench::app::PointPlan open =
      bench::app::point_plan(at_rate, prepared, at_rate.points[0], &*schedule);
  EXPECT_EQ(open.measured_requests, std::numeric_limits<std::size_t>::max());
  EXPECT_EQ(open.driver.per_prompt.schedule, &*schedule);
  EXPECT_EQ(open.driver.per_prompt.warmup_requests, 1u);
  EXPECT_EQ(open.summary.target_in_flight, 0);
}

// Issue 43: `--duration 2s --num-prompts 50` sent 474 requests. Both given, whichever comes
// first ends the run (GuideLLM's convention), and the start-up line says so; --duration alone
// still bounds by time.
TEST(RunPlan, ADurationWithNumPromptsEndsAtWhicheverComesFirst) {
  PreparedRun prepared;
  prepared.urls = {"http://127.0.0.1:1/v1/chat/completions"};
  const RunPlan both = plan_run(
      parse_run_options({"--concurrency", "4", "--duration", "2s", "--num-prompts", "50"}));
  EXPECT_EQ(bench::app::point_plan(both, prepared, both.points[0], nullptr).measured_requests, 50u);
  EXPECT_NE(both.load_line.find("for 2s or 50 requests, whichever comes first"), std::string::npos)
      << both.load_line;
  EXPECT_EQ(both.arrivals.measured_requests, 50u);
  const RunPlan timed = plan_run(parse_run_options({"--concurrency", "4", "--duration", "2s"}));
  EXPECT_EQ(bench::app::point_plan(timed, prepared, timed.points[0], nullptr).measured_requests,
            std::numeric_limits<std::size_t>::max());
  EXPECT_EQ(timed.load_line.find("whichever"), std::string::npos) << timed.load_line;
  EXPECT_EQ(timed.arrivals.measured_requests, std::numeric_limits<std::size_t>::max());
  // With --reuse-prompts, --num-prompts is the prompts a timed run cycles through: no cap.
  const RunPlan reused = plan_run(parse_run_options(
      {"--concurrency", "4", "--duration", "2s", "--num-prompts", "50", "--reuse-prompts"}));
  EXPECT_EQ(bench::app::point_plan(reused, prepared, reused.points[0], nullptr).measured_requests,
            std::numeric_limits<std::size_t>::max());
}

// Issue 43: `--concurrency 256 --num-prompts 100` ran with no word that 256 could never be in
// flight. The plan says it before anything is sent; a reachable load, an open loop or a timed
// run draw nothing.
TEST(RunPlan, AConcurrencyAboveTheRequestsSentIsSaidBeforeTheRun) {
  const RunPlan plan =
      plan_run(parse_run_options({"--concurrency", "8,256,512", "--num-prompts", "100"}));
  ASSERT_EQ(plan.load_warnings.size(), 1u);
  EXPECT_EQ(plan.load_warnings[0].rfind("--concurrency 256,512 cannot be reached: the run sends "
                                        "100 measured requests",
                                        0),
            0u)
      << plan.load_warnings[0];
  EXPECT_TRUE(plan_run(parse_run_options({"--concurrency", "100", "--num-prompts", "100"}))
                  .load_warnings.empty());
  EXPECT_TRUE(plan_run(parse_run_options({"--concurrency", "256", "--duration", "5s"}))
                  .load_warnings.empty());
  EXPECT_TRUE(plan_run(parse_run_options({"--request-rate", "10", "--concurrency", "256",
                                          "--num-prompts", "100"}))
                  .load_warnings.empty());
  // A ramp is an open loop too: its --concurrency (65536 unless given) is a cap, not a target.
  for (const std::vector<std::string>& cap :
       {std::vector<std::string>{}, std::vector<std::string>{"--concurrency", "256"}}) {
    std::vector<std::string> args = {"--ramp-up-strategy", "linear", "--ramp-up-start-rps", "1",
                                     "--ramp-up-end-rps",  "10",     "--num-prompts",       "100"};
    args.insert(args.end(), cap.begin(), cap.end());
    EXPECT_TRUE(plan_run(parse_run_options(args)).load_warnings.empty()) << args.size();
  }
  EXPECT_EQ(plan_run(parse_run_options(
                         {"--concurrency", "256", "--duration", "5s", "--num-prompts", "100"}))
                .load_warnings.size(),
            1u);
}

// A search's concurrency probe is sized by its load: at least four waves of it, whatever
// --num-prompts says, so that it can hold its load and have a steady state.
TEST(RunPlan, ASearchProbeSendsAtLeastFourWavesOfItsConcurrency) {
  bench::cli::SearchOptions search;
  const bench::app::ProbePlanner planner(parse_run_options({"--num-prompts", "150"}), search);
  EXPECT_EQ(planner.at(16).bounds.num_prompts, 150);
  EXPECT_EQ(planner.at(256).bounds.num_prompts, 4 * 256);
  EXPECT_TRUE(planner.at(256).load_warnings.empty());
}

// A rate probe is sized by time: at least ten seconds of arrivals at its rate.
TEST(RunPlan, ASearchRateProbeSendsAtLeastTenSecondsOfArrivals) {
  bench::cli::SearchOptions search;
  search.over = bench::cli::SearchOver::rate;
  const bench::app::ProbePlanner planner(parse_run_options({"--num-prompts", "150"}), search);
  EXPECT_EQ(planner.at(4).bounds.num_prompts, 150);
  EXPECT_EQ(planner.at(100).bounds.num_prompts, 1000);
  EXPECT_EQ(planner.at(2.55).bounds.num_prompts, 150);
  EXPECT_EQ(planner.at(20.05).bounds.num_prompts, 201);
}

TEST(RunPlan, SeveralServersEachGetTheEndpointTheirConnectionsAndTheirMetrics) {
  const bench::cli::RunOptions options =
      parse_run_options({"--base-url", "http://a:1", "--base-url", "http://b:2", "--server-weights",
                         "3,1", "--server-metrics"});
  const RunPlan plan = plan_run(options);
  PreparedRun prepared;
  prepared.target.base_urls = options.base_urls;
  prepared.urls = {"http://a:1/v1/chat/completions", "http://b:2/v1/chat/completions"};
  prepared.spread = std::make_shared<const bench::app::ServerSpread>(options.server_weights);
  const bench::app::PointPlan point =
      bench::app::point_plan(plan, prepared, plan.points[0], nullptr);
  EXPECT_EQ(point.driver.target.urls, prepared.urls);
  EXPECT_EQ(point.driver.target.spread, prepared.spread.get());
  EXPECT_EQ(point.preconnect_urls,
            (std::vector<std::string>{"http://a:1/v1/models", "http://b:2/v1/models"}));
  const bench::results::RunContext context =
      bench::app::point_context(plan, prepared, plan.points[0]);
  EXPECT_EQ(context.config["server_metrics"],
            nlohmann::json({"http://a:1/metrics", "http://b:2/metrics"}));
  EXPECT_EQ(context.config["base_urls"], nlohmann::json({"http://a:1", "http://b:2"}));
  EXPECT_EQ(context.config["server_weights"], nlohmann::json({3, 1}));
}

TEST(RunPlan, TheOpenLoopPlanCarriesTheRampAndBothPhasesBounds) {
  const bench::cli::RunOptions options = parse_run_options(
      {"--ramp-up-strategy", "linear", "--ramp-up-start-rps", "1", "--ramp-up-end-rps", "9",
       "--num-prompts", "20", "--warmup-requests", "2", "--seed", "5"});
  const bench::schedule::OpenLoopPlan open =
      bench::app::open_loop_plan(plan_run(options), options.request_rates[0]);
  EXPECT_EQ(open.measured.ramp.strategy, bench::schedule::RampStrategy::linear);
  EXPECT_EQ(open.measured.ramp.end_rps, 9);
  EXPECT_EQ(open.measured.seed, 5u);
  EXPECT_EQ(open.warmup_requests, 2u);
  EXPECT_EQ(open.measured_requests, 20u);
}

TEST(RunPlan, TheReportContextSaysWhatWasSent) {
  const bench::cli::RunOptions options =
      parse_run_options({"--endpoint", "completions", "--extra-body", R"({"max_tokens":7})"});
  const RunPlan plan = plan_run(options);
  PreparedRun prepared;
  prepared.target.base_urls = {"http://127.0.0.1:9"};
  prepared.request.model = "m";
  const bench::results::RunContext context =
      bench::app::point_context(plan, prepared, plan.points[0]);
  EXPECT_EQ(context.endpoint, "completions");
  EXPECT_EQ(context.output_len, 7);
  EXPECT_EQ(context.config["output_len"], 7);
  EXPECT_EQ(context.config["model"], "m");
  EXPECT_EQ(context.config["dataset"], "random");
  EXPECT_EQ(context.config["endpoint"], "completions");
}

// A trace replays all its rows unless --num-prompts limits them: the measured requests are the
// rows after the warm-up's, known once the trace is read.
TEST(RunPlan, ATraceReplaysItsRowsAfterTheWarmUpOrAsManyAsAskedFor) {
  const std::vector<std::string> trace = {
      "--dataset",         "trace",
      "--trace-format",    "mooncake",
      "--dataset-path",    std::string(BENCH_TEST_DATA_DIR) + "/traces/mooncake_sample.jsonl",
      "--warmup-requests", "3"};
  RunPlan plan = plan_run(parse_run_options(trace));
  EXPECT_FALSE(plan.dataset.count.has_value());  // every row (20)
  EXPECT_EQ(plan.bounds.num_prompts, 17);

  std::vector<std::string> limited_args = trace;
  limited_args.insert(limited_args.end(), {"--num-prompts", "5"});
  plan = plan_run(parse_run_options(limited_args));
  EXPECT_EQ(plan.dataset.count, std::optional<std::size_t>(8));
  EXPECT_EQ(plan.bounds.num_prompts, 5);

  std::vector<std::string> no_rows_left = trace;
  no_rows_left.back() = "20";
  EXPECT_THROW(plan_run(parse_run_options(no_rows_left)), std::invalid_argument);
}

}  // namespace

namespace {

TEST(RunPlanShards, ConcurrencySplitsAsEvenlyAsPossibleWithTheRemainderToTheFirstShards) {
  EXPECT_EQ(bench::app::shard_share(10, 4, 0), 3);
  EXPECT_EQ(bench::app::shard_share(10, 4, 1), 3);
  EXPECT_EQ(bench::app::shard_share(10, 4, 2), 2);
  EXPECT_EQ(bench::app::shard_share(10, 4, 3), 2);
  std::int64_t total = 0;
  for (std::size_t shard = 0; shard < 7; ++shard) total += bench::app::shard_share(100, 7, shard);
  EXPECT_EQ(total, 100);
  EXPECT_EQ(bench::app::shard_share(64, 1, 0), 64);
}

TEST(RunPlanShards, AShardTakesItsShareOfTheLoadAndOnlyTheFirstPointWaitsForStartAt) {
  const bench::cli::RunOptions options =
      parse_run_options({"--base-url", "http://127.0.0.1:1", "--concurrency", "10,20", "--seed",
                         "1", "--shard", "3/4", "--num-prompts", "12", "--preconnect", "6"});
  const RunPlan plan = plan_run(options);
  PreparedRun prepared;
  const bench::app::PointPlan first =
      bench::app::point_plan(plan, prepared, plan.points[0], nullptr);
  EXPECT_EQ(first.shard_index, 3u);
  EXPECT_EQ(first.shard_count, 4u);
  EXPECT_EQ(first.engine.concurrency, 2);  // 10 = 3 + 3 + 2 + 2
  EXPECT_EQ(first.preconnect, 1);          // 6 = 2 + 2 + 1 + 1
  EXPECT_EQ(first.summary.target_in_flight, 2);
  EXPECT_EQ(first.measured_requests, 12u);  // the run's: each driver counts its own indices
  EXPECT_EQ(bench::app::point_context(plan, prepared, plan.points[0]).concurrency, 2);
  const bench::app::PointPlan second =
      bench::app::point_plan(plan, prepared, plan.points[1], nullptr);
  EXPECT_EQ(second.engine.concurrency, 5);
  EXPECT_FALSE(second.start_at_unix_ns.has_value());
}

}  // namespace

namespace {

// --tokenizer's values: none (found at start), 'words', 'server', a repo id read from the Hugging
// Face cache, a file.
TEST(RunPlan, TokenizerValuesNameTheirSource) {
  using bench::app::TokenizerSource;
  const auto source = [](std::vector<std::string> args) {
    return plan_run(parse_run_options(std::move(args))).tokenizer.source;
  };
  EXPECT_EQ(source({}), TokenizerSource::automatic);
  EXPECT_EQ(source({"--tokenizer", "words"}), TokenizerSource::words);
  EXPECT_EQ(source({"--tokenizer", "server"}), TokenizerSource::server);
  EXPECT_EQ(source({"--tokenizer", "meta-llama/Llama-3.1-8B-Instruct"}), TokenizerSource::hub);
  EXPECT_EQ(source({"--tokenizer", "models/tokenizer.json"}), TokenizerSource::file);
}

}  // namespace
