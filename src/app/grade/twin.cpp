// The twin's replay (twin.hpp): the run's load as bench's own command line, against a fresh
// embedded server at the run's medians, through grade's run-against-a-server step.
#include "bench/app/grade/twin.hpp"

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "graded_run.hpp"

namespace bench::app {

namespace {

using nlohmann::json;

std::int64_t whole(std::optional<double> value) {
  return std::max<std::int64_t>(1, std::llround(value.value_or(1)));
}

// The twin's load: the run's endpoint, concurrency cap or rate, requests (at most `window`),
// mean lengths and event loops.
BenchLoad twin_load(const json& run, std::int64_t window) {
  BenchLoad load;
  load.requests = std::min<std::int64_t>(window, run.value("completed", std::int64_t{1}));
  read_cap_and_rate(run, load);
  load.endpoint = run.value("endpoint", std::string("chat"));
  load.client_threads = run.value("client", json::object()).value("threads", std::int64_t{0});
  load.input_len = whole(results::number_at(run, "mean_prompt_tokens"));
  load.output_len = whole(results::number_at(run, "mean_completion_tokens"));
  return load;
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

}  // namespace

std::variant<TwinReplay, std::string> replay_on_twin(const json& run, std::int64_t window,
                                                     double timeout_s) {
  const auto ttft = results::number_at(run, "median_ttft_ms");
  const auto tpot = results::number_at(run, "median_tpot_ms");
  if (!ttft || !tpot) return std::string("the run timed no streamed answer (no TTFT or TPOT)");
  sim::SimOptions twin;  // the fixed profile, answering as the run's server did (its medians)
  twin.ttft_ms = *ttft;
  twin.tpot_ms = *tpot;
  auto dir = std::make_shared<GradeDir>();
  const BenchLoad load = twin_load(run, window);
  const std::string requests = dir->file("twin-requests.jsonl");
  std::vector<std::string> argv = bench_command(load);
  argv.insert(argv.end(), {"--save-requests", requests});
  const Run replay{"bench on the twin",           argv, dir->file("twin-results.json"),
                   dir->file("twin-truth.jsonl"), true, "{results}"};
  const double cpu_before = cpu_seconds();
  const auto wall_start = std::chrono::steady_clock::now();
  const auto end = run_against_server(replay, twin, timeout_s);
  TwinReplay out;
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  out.server_cpu_s = cpu_seconds() - cpu_before;
  if (const auto* error = std::get_if<std::string>(&end)) return *error;
  const ChildEnd& ended = std::get<ChildEnd>(end);
  if (!ended.started) return fmt::format("cannot run bench: {}", ended.error);
  if (ended.exit_code != 0)
    return fmt::format("bench's replay on the twin exited {}", ended.exit_code);
  out.requests_path = requests;
  out.truth_path = replay.truth_path;
  out.words = fmt::format(
      "a loopback twin: this host's embedded server answering as the run's did (TTFT {:.2f} ms, "
      "{:.2f} ms a token: the run's medians), replayed as {}; its server took {:.2f} s of CPU "
      "over {:.2f} s",
      *ttft, *tpot, load_words(load), out.server_cpu_s, out.wall_s);
  out.files = dir;
  return out;
}

}  // namespace bench::app
