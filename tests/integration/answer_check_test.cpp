// The answer check over loopback, with the real binary: a simulator answering the known-answer
// prompts rightly draws no warning; one answering random words (a random-weight model), one
// word over and over, or nothing at all draws the warning in the text report, the JSON and on
// stderr, with the exit code unchanged; --no-answer-check sends no probe; a refusal is said;
// the warning is kept by --json-compat, `bench merge` (run and sweep) and `bench report`'s HTML.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using nlohmann::json;

// 8 requests of 16 words and 8 tokens, 2 at a time, at ten times the fixed profile's speed.
std::vector<std::string> short_run(const std::vector<std::string>& base_urls,
                                   const std::string& endpoint) {
  std::vector<std::string> args;
  for (const std::string& url : base_urls) {
    args.push_back("--base-url");
    args.push_back(url);
  }
  for (const char* arg : {"--concurrency", "2", "--num-prompts", "8", "--input-len", "16",
                          "--output-len", "8", "--ignore-eos", "--endpoint"}) {
    args.emplace_back(arg);
  }
  args.push_back(endpoint);
  return args;
}

bench::sim::SimOptions sim_answering(bench::sim::SimAnswers answers) {
  bench::sim::SimOptions options;
  options.time_scale = 10;
  options.answers = answers;
  return options;
}

json results_of(const ProcessResult& run) {
  const json results = json::parse(run.out, nullptr, false);
  EXPECT_FALSE(results.is_discarded()) << run.out;
  return results;
}

// The answers' problems, all of them, for a failure message and a search.
std::string problems_of(const json& check) {
  std::string all;
  for (const json& answer : check.at("answers")) {
    for (const json& problem : answer.at("problems")) all += problem.get<std::string>() + "; ";
  }
  return all;
}

TEST(AnswerCheck, APlausibleSimulatorDrawsNoWarning) {
  for (const char* endpoint : {"chat", "completions"}) {
    bench::sim::SimServer server(sim_answering(bench::sim::SimAnswers::canned));
    std::vector<std::string> args = short_run({server.base_url()}, endpoint);
    args.insert(args.end(), {"--output-format", "json"});
    const ProcessResult run = run_process(BENCH_BINARY, args);
    ASSERT_FALSE(run.timed_out);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.err.find("warning: answer check"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("bench: answer check: 3 of 3 known-answer prompts answered plausibly"),
              std::string::npos)
        << run.err;
    const json check = results_of(run).at("answer_check");
    EXPECT_EQ(check.at("verdict"), "plausible") << endpoint << ": " << problems_of(check);
    EXPECT_EQ(check.at("plausible"), 3);
    EXPECT_EQ(check.at("answers").size(), 3u);
    // The probe's requests are in no figure: the run counts its own 8.
    EXPECT_EQ(results_of(run).at("completed"), 8);
  }
}

TEST(AnswerCheck, ARandomWeightModelIsWarnedOfInTextJsonAndStderrWithTheExitCodeUnchanged) {
  bench::sim::SimServer server(sim_answering(bench::sim::SimAnswers::random));
  bench::testing::TempDir dir;
  const std::string json_path = dir.file("results.json");
  std::vector<std::string> args = short_run({server.base_url()}, "chat");
  args.insert(args.end(), {"--output-file", json_path});
  const ProcessResult run = run_process(BENCH_BINARY, args);
  ASSERT_FALSE(run.timed_out);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("bench: warning: answer check: 0 of 3 known-answer prompts answered "
                         "plausibly: the answers do not look like a model's work"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.out.find("Answer check:                     WARNING: 0 of 3"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("  count_to_10: expected the numbers 1 to 10 in order"), std::string::npos)
      << run.out;
  const json check = json::parse(bench::testing::read_file(json_path)).at("answer_check");
  EXPECT_EQ(check.at("verdict"), "implausible");
  EXPECT_EQ(check.at("implausible"), 3);
  for (const json& answer : check.at("answers")) {
    EXPECT_EQ(answer.at("verdict"), "implausible");
    EXPECT_EQ(answer.at("http_status"), 200);
    EXPECT_FALSE(answer.at("excerpt").get<std::string>().empty());
  }
}

TEST(AnswerCheck, ALoopingServerAndAnEmptyOneAreWarnedOfWithWhatLookedWrong) {
  const struct {
    bench::sim::SimAnswers answers;
    const char* endpoint;
    const char* problem;
  } cases[] = {{bench::sim::SimAnswers::repeat, "chat", "one word repeated ('the' is"},
               {bench::sim::SimAnswers::repeat, "completions", "one word repeated ('the' is"},
               {bench::sim::SimAnswers::empty, "chat", "no text"},
               {bench::sim::SimAnswers::empty, "completions", "no text"}};
  for (const auto& c : cases) {
    bench::sim::SimServer server(sim_answering(c.answers));
    std::vector<std::string> args = short_run({server.base_url()}, c.endpoint);
    args.insert(args.end(), {"--output-format", "json", "--quiet"});
    const ProcessResult run = run_process(BENCH_BINARY, args);
    ASSERT_FALSE(run.timed_out);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    // Said even with --quiet: it is a warning, not a note.
    EXPECT_NE(run.err.find("bench: warning: answer check"), std::string::npos) << run.err;
    const json check = results_of(run).at("answer_check");
    EXPECT_EQ(check.at("verdict"), "implausible") << c.endpoint;
    EXPECT_NE(problems_of(check).find(c.problem), std::string::npos)
        << c.endpoint << ": " << problems_of(check);
  }
}

TEST(AnswerCheck, TurnedOffItSendsNoRequestAndWritesNull) {
  std::uint64_t served[2] = {0, 0};
  for (const bool off : {false, true}) {
    bench::sim::SimServer server(sim_answering(bench::sim::SimAnswers::random));
    std::vector<std::string> args = short_run({server.base_url()}, "chat");
    args.insert(args.end(), {"--output-format", "json"});
    if (off) args.emplace_back("--no-answer-check");
    const ProcessResult run = run_process(BENCH_BINARY, args);
    ASSERT_FALSE(run.timed_out);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    served[off ? 1 : 0] = server.requests_served();
    if (off) {
      EXPECT_TRUE(results_of(run).at("answer_check").is_null());
      EXPECT_EQ(run.err.find("answer check"), std::string::npos) << run.err;
    }
  }
  // The same run but for the check: its three prompts are the only difference.
  EXPECT_EQ(served[0], served[1] + 3);
}

TEST(AnswerCheck, EachServerIsAskedAndTheImplausibleOneIsNamed) {
  bench::sim::SimServer plausible(sim_answering(bench::sim::SimAnswers::canned));
  bench::sim::SimServer random(sim_answering(bench::sim::SimAnswers::random));
  std::vector<std::string> args = short_run({plausible.base_url(), random.base_url()}, "chat");
  args.insert(args.end(), {"--output-format", "json"});
  const ProcessResult run = run_process(BENCH_BINARY, args);
  ASSERT_FALSE(run.timed_out);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("bench: warning: answer check: 3 of 6"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("count_to_10 (server 1): "), std::string::npos) << run.err;
  const json check = results_of(run).at("answer_check");
  EXPECT_EQ(check.at("verdict"), "implausible");
  ASSERT_EQ(check.at("answers").size(), 6u);
  for (const json& answer : check.at("answers")) {
    EXPECT_EQ(answer.at("verdict"), answer.at("server") == 0 ? "plausible" : "implausible");
  }
}

TEST(AnswerCheck, ARefusedProbeIsSaidAndTheRunGoesOn) {
  // The probe's max_tokens does not fit a 64-token context; the run's requests (16 + 8) do.
  bench::sim::SimOptions options = sim_answering(bench::sim::SimAnswers::canned);
  options.max_model_len = 64;
  bench::sim::SimServer server(options);
  std::vector<std::string> args = short_run({server.base_url()}, "chat");
  args.insert(args.end(), {"--output-format", "json"});
  const ProcessResult run = run_process(BENCH_BINARY, args);
  ASSERT_FALSE(run.timed_out);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("bench: answer check: not judged"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("count_to_10: not judged: HTTP 400: "), std::string::npos) << run.err;
  const json results = results_of(run);
  EXPECT_EQ(results.at("answer_check").at("verdict"), "not_judged");
  EXPECT_EQ(results.at("answer_check").at("answers").at(0).at("http_status"), 400);
  EXPECT_EQ(results.at("completed"), 8);
}

// Shard `index` of 2 against `base_url`: its results file in `dir`, with `more` flags.
void run_shard(const std::string& base_url, const bench::testing::TempDir& dir, int index,
               const std::vector<std::string>& more) {
  std::vector<std::string> args = short_run({base_url}, "chat");
  args.insert(args.end(), {"--quiet", "--seed", "1", "--shard", std::to_string(index) + "/2",
                           "--output-file", dir.file("shard-" + std::to_string(index) + ".json")});
  args.insert(args.end(), more.begin(), more.end());
  const ProcessResult run = run_process(BENCH_BINARY, args);
  ASSERT_FALSE(run.timed_out);
  ASSERT_EQ(run.exit_code, 0) << run.err;
}

// The merged result of the two shards in `dir`, as text (its JSON in merged.json) and its HTML
// report's page.
struct MergedReport {
  ProcessResult merge;
  json results;
  std::string html;
};
MergedReport merge_and_report(const bench::testing::TempDir& dir) {
  MergedReport out;
  out.merge = run_process(BENCH_BINARY, {"merge", dir.file("shard-0.json"),
                                         dir.file("shard-1.json"), "-o", dir.file("merged.json")});
  EXPECT_EQ(out.merge.exit_code, 0) << out.merge.err;
  out.results = json::parse(bench::testing::read_file(dir.file("merged.json")));
  const ProcessResult report =
      run_process(BENCH_BINARY, {"report", dir.file("merged.json"), "-o", dir.file("r.html")});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  out.html = bench::testing::read_file(dir.file("r.html"));
  return out;
}

// A random-weight model's warning is not lost on the way: the shards' --json-compat files carry
// the block, bench merge keeps it (a run's and a sweep's, at the top and in each point) and says
// it in its text, and bench report's page shows the check in its header and as an alert.
TEST(AnswerCheck, AnImplausibleCheckSurvivesJsonCompatMergeAndTheHtmlReport) {
  bench::sim::SimServer server(sim_answering(bench::sim::SimAnswers::random));
  {
    bench::testing::TempDir dir;
    for (int i = 0; i < 2; ++i) run_shard(server.base_url(), dir, i, {});
    const MergedReport merged = merge_and_report(dir);
    EXPECT_EQ(merged.results.at("answer_check").at("verdict"), "implausible");
    EXPECT_NE(merged.merge.out.find("Answer check:                     WARNING: 0 of 3"),
              std::string::npos)
        << merged.merge.out;
    EXPECT_NE(merged.html.find("<dt>Answer check</dt><dd>0 of 3 known-answer prompts answered "
                               "plausibly: the answers do not look like a model"),
              std::string::npos)
        << merged.html;
    EXPECT_NE(merged.html.find("<div class=\"alert bad\" role=\"alert\">Answer check: 0 of 3"),
              std::string::npos);
    EXPECT_NE(merged.html.find("<li>count_to_10: expected the numbers 1 to 10 in order"),
              std::string::npos);
  }
  bench::testing::TempDir dir;
  for (int i = 0; i < 2; ++i) {
    run_shard(server.base_url(), dir, i, {"--concurrency", "2,4", "--json-compat", "sglang"});
    const json shard =
        json::parse(bench::testing::read_file(dir.file("shard-" + std::to_string(i) + ".json")));
    EXPECT_EQ(shard.at("answer_check").at("verdict"), "implausible") << "shard " << i;
  }
  const MergedReport merged = merge_and_report(dir);
  EXPECT_EQ(merged.results.at("answer_check").at("verdict"), "implausible");
  for (const json& point : merged.results.at("points")) {
    EXPECT_EQ(point.at("answer_check").at("verdict"), "implausible");
  }
  EXPECT_NE(merged.merge.out.find("Answer check: WARNING: 0 of 3"), std::string::npos)
      << merged.merge.out;
  EXPECT_NE(merged.html.find("<div class=\"alert bad\" role=\"alert\">Answer check: 0 of 3"),
            std::string::npos);
}

}  // namespace
