#pragma once
// One graded run (bench grade, bench certify): a command run against a fresh embedded server
// with its truth log, and its results set against what the server sent.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_options.hpp"
#include "child_process.hpp"
#include "grade_report.hpp"

namespace bench::app {

/// A private directory for the truth logs and the results files bench names, removed at the end.
class GradeDir {
 public:
  GradeDir();
  ~GradeDir();
  GradeDir(const GradeDir&) = delete;
  GradeDir& operator=(const GradeDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

struct Run {
  std::string label;
  std::vector<std::string> command;  // {url}, {host}, {port} and {results} filled in
  std::string results_path;
  std::string truth_path;
  bool discard_stdout = false;  // bench's own run: its report is not the grade's
  std::string shown_results;    // the results file as the grade names it
};

/// The command against a fresh server (`sim`, its truth log at run.truth_path); the server stops
/// (its truth log whole) when the command ends. A message when the server cannot start.
std::variant<ChildEnd, std::string> run_against_server(const Run& run, sim::SimOptions sim,
                                                       double timeout_s);

/// A load bench replays against a fresh server: a client's (bench grade) or a run's (its twin).
struct BenchLoad {
  std::int64_t requests = 1;
  std::int64_t concurrency = 1;  // the cap on requests in flight
  std::optional<double> rate;    // a finite request rate; none: a closed loop
  std::int64_t input_len = 1, output_len = 1;
  std::string endpoint = "chat";
  std::int64_t client_threads = 0;  // 0: bench's own choice
};

/// The cap and rate `results` holds (its max_concurrency, else `load.requests`; its request_rate
/// when finite), into `load`: vLLM's, SGLang's and bench's files spell them alike.
void read_cap_and_rate(const nlohmann::json& results, BenchLoad& load);

/// bench's command line for `load` against {url}, writing {results}: ignore-eos, no warm-up, no
/// answer check, quiet.
std::vector<std::string> bench_command(const BenchLoad& load);

/// "24 requests at concurrency 4, chat, 1 event loop(s)": the load in words.
std::string load_words(const BenchLoad& load);

/// The run's results and truth, graded; a message saying what could not be read.
std::variant<Graded, std::string> graded(const Run& run, const ChildEnd& end);

}  // namespace bench::app
