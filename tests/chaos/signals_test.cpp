// Chaos suite: signals from `timeout`, CI runners and terminals (issue 43, item 2), through the
// real binary. Each test waits for an event it can observe (the live feed's counts, a server's
// accepted connection), never for a guessed time; the one wait by the clock is the second that
// separates a forced quit from a repeated signal, a lower bound that a slow machine only lengthens.
#include <signal.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/cli/exit_codes.hpp"
#include "bench/sim/sim_server.hpp"
#include "hostile_server.hpp"
#include "jsonl.hpp"
#include "quick_sim.hpp"
#include "run_process.hpp"
#include "wait_count.hpp"

namespace chaos_signals {

using bench::cli::kExitInterrupted;
using bench::testing::ProcessOptions;
using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

// The last whole line of --live-jsonl (written every 250 ms); null before the first.
json last_live_line(const std::string& path) {
  const std::string text = bench::testing::read_file(path);
  const std::size_t end = text.rfind('\n');
  if (end == std::string::npos) return nullptr;
  const std::size_t start = text.rfind('\n', end - 1);
  return json::parse(text.substr(start == std::string::npos ? 0 : start + 1,
                                 end - (start == std::string::npos ? 0 : start + 1)),
                     nullptr, false);
}

std::int64_t measured(const json& line, const char* what) {
  if (!line.is_object()) return 0;
  return line["requests"]["measured"].value(what, std::int64_t{0});
}

// A run of many short requests against `server`, its files in `dir`, its live feed in
// dir/live.jsonl; ended only by a signal.
std::vector<std::string> endless_run(const bench::sim::SimServer& server, const TempDir& dir,
                                     std::vector<std::string> more = {}) {
  std::vector<std::string> args = {"--base-url", server.base_url(), "--no-answer-check", "--quiet",
                                   "--num-prompts", "1000000", "--concurrency", "4", "--output-len",
                                   "16", "--output-file", dir.file("r.json"), "--save-requests",
                                   dir.file("r.jsonl"), "--live-jsonl", dir.file("live.jsonl"),
                                   // a million prompts: none made ahead before the signal
                                   "--tokenizer", "words"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// Sends `signals` to the child, one after another, once `ready()` holds.
ProcessOptions signal_when(std::function<bool()> ready, std::vector<int> signals) {
  ProcessOptions options;
  options.timeout = std::chrono::seconds(120);
  options.while_running = [ready = std::move(ready), signals, sent = false](
                              int pid, std::chrono::milliseconds) mutable {
    if (sent || !ready()) return;
    for (const int signal : signals) ::kill(pid, signal);
    sent = true;
  };
  return options;
}

// Files a run left beside its outputs that are not its outputs: temporary files.
std::vector<std::string> leftovers(const TempDir& dir) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    const std::string name = entry.path().filename().string();
    if (name.find(".tmp.") != std::string::npos || name.ends_with(".partial")) {
      found.push_back(name);
    }
  }
  return found;
}

// GNU timeout sends SIGTERM to bench and then to its process group (a terminal's Ctrl-C
// reaches the whole group too): two signals at once are one stop, and the results are kept.
TEST(Signals, TwoSignalsAtOnceAreOneStopAndTheResultsAreWritten) {
  bench::sim::SimServer server(bench::testing::quick_sim(1, 1));
  TempDir dir;
  const std::string live = dir.file("live.jsonl");
  const ProcessResult run =
      run_process(BENCH_BINARY, endless_run(server, dir),
                  signal_when([&] { return measured(last_live_line(live), "completed") >= 8; },
                              {SIGTERM, SIGTERM}));
  ASSERT_FALSE(run.timed_out) << run.err;
  EXPECT_EQ(run.exit_code, kExitInterrupted) << run.err;
  ASSERT_TRUE(fs::exists(dir.file("r.json"))) << "results lost to the second signal\n" << run.err;
  const json results = json::parse(bench::testing::read_file(dir.file("r.json")));
  EXPECT_EQ(results["interrupted"], true);
  EXPECT_FALSE(results.contains("partial"));  // the run's own results, not a checkpoint
  EXPECT_GE(results["completed"].get<int>(), 8);
  const int sent = results["sent"];
  EXPECT_EQ(static_cast<int>(bench::testing::read_jsonl(dir.file("r.jsonl")).size()), sent);
  EXPECT_EQ(leftovers(dir), std::vector<std::string>{});
  // INTERRUPTED before any figure, not after them all.
  const std::size_t flag = run.out.find("INTERRUPTED");
  ASSERT_NE(flag, std::string::npos) << run.out;
  EXPECT_LT(flag, run.out.find("Target")) << run.out;
}

// GitHub Actions cancels a job with SIGINT and, 7.5 s later, SIGTERM: a second signal more than
// a second after the first cancels what is in flight at once (the grace here is ten minutes),
// and what was measured is still written, marked interrupted, with no temporary file left.
TEST(Signals, ALaterSecondSignalCancelsInFlightRequestsAndStillWritesTheResults) {
  bench::sim::SimOptions endless = bench::testing::quick_sim(1, 1);
  endless.ttft_ms = 600'000;  // no request ends on its own
  bench::sim::SimServer server(endless);
  TempDir dir;
  const std::string live = dir.file("live.jsonl");
  ProcessOptions options;
  options.timeout = std::chrono::seconds(120);
  options.err_path = dir.file("err.txt");
  bool first_sent = false;
  std::optional<std::chrono::milliseconds> first_seen;  // when its handler had said so
  bool second_sent = false;
  options.while_running = [&](int pid, std::chrono::milliseconds elapsed) {
    if (!first_sent) {
      const json line = last_live_line(live);
      if (!line.is_object() || line.value("in_flight", 0) < 4) return;
      ::kill(pid, SIGINT);
      first_sent = true;
    } else if (!first_seen) {
      // Timed from the handler's own line, so a busy machine that runs bench late cannot
      // deliver both signals within the second that makes them one.
      if (bench::testing::read_file(options.err_path).find("interrupt") != std::string::npos) {
        first_seen = elapsed;
      }
    } else if (!second_sent && elapsed >= *first_seen + std::chrono::milliseconds(1200)) {
      ::kill(pid, SIGTERM);
      second_sent = true;
    }
  };
  // (per-chunk usage on: its start-up probe would wait for a first token that never comes)
  const ProcessResult run =
      run_process(BENCH_BINARY,
                  endless_run(server, dir, {"--grace", "600", "--per-chunk-usage", "on"}), options);
  ASSERT_FALSE(run.timed_out) << "the forced quit did not end the grace\n" << run.err;
  EXPECT_EQ(run.exit_code, kExitInterrupted) << run.err;
  ASSERT_TRUE(fs::exists(dir.file("r.json"))) << "results lost to the second signal\n" << run.err;
  const json results = json::parse(bench::testing::read_file(dir.file("r.json")));
  EXPECT_EQ(results["interrupted"], true);
  EXPECT_FALSE(results.contains("partial"));
  EXPECT_EQ(results["sent"], 4);
  EXPECT_EQ(results["cancelled"], 4);
  EXPECT_NE(results.dump().find("forced quit"), std::string::npos) << results["errors"].dump();
  EXPECT_EQ(bench::testing::read_jsonl(dir.file("r.jsonl")).size(), 4u);
  EXPECT_EQ(leftovers(dir), std::vector<std::string>{});
}

// A SIGKILL cannot be handled: what was written before it must already be on disk. Every
// request-log line is handed to the kernel as its request ends, into PATH.partial.
TEST(Signals, AKilledRunLeavesEveryRequestLineWrittenSoFar) {
  bench::sim::SimServer server(bench::testing::quick_sim(1, 1));
  TempDir dir;
  const std::string live = dir.file("live.jsonl");
  std::int64_t completed_before_kill = 0;
  const ProcessResult run = run_process(BENCH_BINARY, endless_run(server, dir),
                                        signal_when(
                                            [&] {
                                              completed_before_kill =
                                                  measured(last_live_line(live), "completed");
                                              return completed_before_kill >= 8;
                                            },
                                            {SIGKILL}));
  ASSERT_FALSE(run.timed_out) << run.err;
  EXPECT_EQ(run.exit_code, 128 + SIGKILL);
  const std::vector<json> lines = bench::testing::read_jsonl(dir.file("r.jsonl.partial"));
  // The live feed counts a request just before its line is written: at most one a client
  // thread (4 slots here) may be counted and not yet written when the kill comes.
  EXPECT_GE(static_cast<std::int64_t>(lines.size()), completed_before_kill - 4);
  for (const json& line : lines) EXPECT_TRUE(line.contains("ttft_ms")) << line.dump();
}

// A killed run leaves its last checkpoint at --output-file: a whole results file marked partial
// (and interrupted), which `bench report` reads as it reads any results file.
TEST(Signals, AKilledRunLeavesAPartialResultsFile) {
  bench::sim::SimServer server(bench::testing::quick_sim(1, 1));
  TempDir dir;
  const std::string results_path = dir.file("r.json");
  auto checkpointed = [&] {
    const json results = json::parse(bench::testing::read_file(results_path), nullptr, false);
    return results.is_object() && results.value("completed", 0) >= 8;
  };
  ProcessOptions options = signal_when(checkpointed, {SIGKILL});
  options.timeout = std::chrono::seconds(60);
  const ProcessResult run = run_process(BENCH_BINARY, endless_run(server, dir), options);
  ASSERT_FALSE(run.timed_out) << "no checkpoint of the results appeared\n" << run.err;
  EXPECT_EQ(run.exit_code, 128 + SIGKILL);
  const json results = json::parse(bench::testing::read_file(results_path));
  EXPECT_EQ(results["partial"], true);
  EXPECT_EQ(results["interrupted"], true);
  EXPECT_EQ(results["sent"].get<int>(), results["completed"].get<int>() +
                                            results["failed"].get<int>() +
                                            results["cancelled"].get<int>());
  const ProcessResult report =
      run_process(BENCH_BINARY, {"report", results_path, "-o", dir.file("r.html")});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(bench::testing::read_file(dir.file("r.html")).find("interrupted"), std::string::npos);
}

// Before the measured phase nothing has been measured: the first signal ends bench at once,
// even while a start-up probe waits on a server that accepted and never answers (its request
// timeout here is far beyond the test's own deadline).
TEST(Signals, TheFirstSignalBeforeTheMeasuredPhaseExitsAtOnce) {
  bench::testing::WaitCount accepted;
  bench::testing::HostileServer silent([&](bench::testing::Exchange& exchange) {
    accepted.add();
    exchange.pause(std::chrono::minutes(10));
  });
  TempDir dir;
  ProcessOptions options = signal_when([&] { return accepted.value() >= 1; }, {SIGINT});
  options.timeout = std::chrono::seconds(60);
  const ProcessResult run = run_process(
      BENCH_BINARY,
      {"--base-url", silent.base_url(), "--model", "m", "--no-answer-check", "--num-prompts", "5",
       "--request-timeout", "300", "--output-file", dir.file("r.json")},
      options);
  ASSERT_FALSE(run.timed_out) << "still waiting on the start-up probe\n" << run.err;
  EXPECT_EQ(run.exit_code, kExitInterrupted) << run.err;
  EXPECT_FALSE(fs::exists(dir.file("r.json")));
  EXPECT_EQ(leftovers(dir), std::vector<std::string>{});
}

// A sweep cut short says so first, and marks the point the stop cut short in its table.
TEST(Signals, AnInterruptedSweepSaysSoFirstAndMarksItsPartialPoint) {
  bench::sim::SimServer server(bench::testing::quick_sim(1, 1));
  TempDir dir;
  const std::string live = dir.file("live.jsonl");
  const ProcessResult run = run_process(
      BENCH_BINARY,
      {"--base-url", server.base_url(), "--no-answer-check", "--quiet", "--num-prompts", "1000000",
       "--concurrency", "2,4", "--output-len", "16", "--live-jsonl", live},
      signal_when([&] { return measured(last_live_line(live), "completed") >= 8; }, {SIGINT}));
  ASSERT_FALSE(run.timed_out) << run.err;
  EXPECT_EQ(run.exit_code, kExitInterrupted) << run.err;
  const std::size_t flag = run.out.find("INTERRUPTED");
  ASSERT_NE(flag, std::string::npos) << run.out;
  EXPECT_LT(flag, run.out.find("req/s")) << run.out;
  EXPECT_NE(run.out.find("\n         2* "), std::string::npos) << run.out;  // its first cell
  EXPECT_NE(run.out.find("* partial:"), std::string::npos) << run.out;
}

}  // namespace chaos_signals
