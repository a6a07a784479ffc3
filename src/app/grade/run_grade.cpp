// `bench grade`: the client's command run against a fresh embedded server with its truth log,
// its results read back, each figure set against what the server really sent; then bench's own
// run of the same load (the client's concurrency or rate, requests and mean lengths) graded the
// same way against another fresh server.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/app/grade/grade.hpp"
#include "bench/cli/exit_codes.hpp"
#include "bench/results/peer_file_read.hpp"
#include "bench/results/read_file.hpp"
#include "bench/sim/sim_server.hpp"
#include "bench/sim/trace_log_read.hpp"
#include "child_process.hpp"
#include "grade_report.hpp"
#include "graded_figures.hpp"

namespace bench::app {

namespace {

using nlohmann::json;

// A private directory for the truth logs and the results files bench names, removed at the end.
class GradeDir {
 public:
  GradeDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "bench-grade-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot make " + pattern);
    path_ = pattern;
  }
  ~GradeDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  GradeDir(const GradeDir&) = delete;
  GradeDir& operator=(const GradeDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

struct Place {
  std::string url, host, port, results;
};

std::string filled(std::string arg, const Place& place) {
  const std::pair<std::string_view, const std::string*> names[] = {{"{url}", &place.url},
                                                                   {"{host}", &place.host},
                                                                   {"{port}", &place.port},
                                                                   {"{results}", &place.results}};
  for (const auto& [name, value] : names) {
    for (std::size_t at = arg.find(name); at != std::string::npos;
         at = arg.find(name, at + value->size())) {
      arg.replace(at, name.size(), *value);
    }
  }
  return arg;
}

struct Run {
  std::string label;
  std::vector<std::string> command;
  std::string results_path;
  std::string truth_path;
  bool discard_stdout = false;  // bench's own run: its report is not the grade's
  std::string shown_results;    // the results file as the grade names it
};

// The command against a fresh server; the server stops (its truth log whole) when it ends.
std::variant<ChildEnd, std::string> run_against_server(const Run& run, sim::SimOptions sim,
                                                       double timeout_s) {
  sim.trace_path = run.truth_path;
  sim.port = 0;
  try {
    const sim::SimServer server(sim);
    const Place place{server.base_url(), "127.0.0.1", std::to_string(server.port()),
                      run.results_path};
    std::vector<std::string> argv;
    for (const std::string& arg : run.command) argv.push_back(filled(arg, place));
    return run_child(argv,
                     {{"BENCH_GRADE_URL", place.url}, {"BENCH_GRADE_RESULTS", run.results_path}},
                     timeout_s, run.discard_stdout);
  } catch (const std::exception& error) {
    return std::string("cannot start the embedded server: ") + error.what();
  }
}

// The results and the truth of one run, graded; a message saying what could not be read.
std::variant<Graded, std::string> graded(const Run& run, const ChildEnd& end) {
  auto file = results::read_results_file(run.results_path);
  if (const auto* error = std::get_if<results::FormatError>(&file)) {
    return fmt::format("{}'s results ({}{}): {}", run.label, run.shown_results,
                       end.exit_code == 0 ? "" : fmt::format("; it exited {}", end.exit_code),
                       error->message);
  }
  const json& results = std::get<results::ResultsFile>(file).results;
  if (std::get<results::ResultsFile>(file).kind != results::Kind::run) {
    return fmt::format("{}'s results ({}): a grade reads one run's results", run.label,
                       run.shown_results);
  }
  auto truth = sim::read_trace_log(run.truth_path);
  if (const auto* error = std::get_if<std::string>(&truth)) return "the truth log: " + *error;
  Graded g;
  g.label = run.label;
  g.results_path = run.shown_results;
  g.tool = results.value(std::string(results::kPeerFileKey), std::string("bench"));
  g.completed = results.value("completed", std::int64_t{0});
  g.figures = figures_of_results(results);
  g.truth = truth_figures(std::get<std::vector<sim::TraceRecord>>(truth), g.completed);
  g.exit_code = end.exit_code;
  return g;
}

// bench's own command for the client's load: its concurrency cap or its rate, its completed
// requests, its mean lengths (the server counts words, as bench does without a tokenizer).
std::vector<std::string> same_load(const Run& client, const Graded& graded_client) {
  json raw = json::parse(std::ifstream(client.results_path), nullptr, false);
  if (!raw.is_object()) raw = json::object();
  const std::int64_t n = std::max<std::int64_t>(graded_client.completed, 1);
  const auto mean_of = [&](const char* key) {
    const double total = raw.value(key, 0.0);
    return std::to_string(std::max<std::int64_t>(1, std::llround(total / static_cast<double>(n))));
  };
  std::vector<std::string> argv = {std::filesystem::read_symlink("/proc/self/exe").string(),
                                   "--base-url", "{url}", "--num-prompts", std::to_string(n)};
  const auto concurrency = raw.find("max_concurrency");
  argv.push_back("--concurrency");
  argv.push_back(concurrency != raw.end() && concurrency->is_number_integer()
                     ? std::to_string(concurrency->get<std::int64_t>())
                     : std::to_string(n));
  const auto rate = raw.find("request_rate");
  if (rate != raw.end() && rate->is_number() && std::isfinite(rate->get<double>())) {
    argv.insert(argv.end(), {"--request-rate", fmt::format("{}", rate->get<double>())});
  }
  argv.insert(argv.end(), {"--input-len", mean_of("total_input_tokens"), "--output-len",
                           mean_of("total_output_tokens"), "--ignore-eos", "--warmup-requests", "0",
                           "--no-answer-check", "--quiet", "--output-file", "{results}"});
  return argv;
}

}  // namespace

int run_grade(const cli::GradeOptions& options, std::ostream& out, std::ostream& err) {
  const GradeDir dir;
  const bool named = !options.results_path.empty();
  const Run client{"the client",
                   options.command,
                   named ? options.results_path : dir.file("client-results.json"),
                   dir.file("client-truth.jsonl"),
                   false,
                   named ? options.results_path : "{results}"};
  const auto client_end = run_against_server(client, options.sim, options.timeout_s);
  if (const auto* error = std::get_if<std::string>(&client_end)) {
    err << "bench grade: error: " << *error << "\n";
    return cli::kExitRunFailed;
  }
  const ChildEnd& end = std::get<ChildEnd>(client_end);
  if (!end.started) {
    err << "bench grade: error: cannot run the client: " << end.error << "\n";
    return cli::kExitRunFailed;
  }
  if (end.timed_out) {
    err << "bench grade: the client ran over --timeout " << options.timeout_s << " s: stopped\n";
  }
  auto client_grade = graded(client, end);
  if (const auto* error = std::get_if<std::string>(&client_grade)) {
    err << "bench grade: error: " << *error << "\n";
    return cli::kExitUsage;
  }
  std::optional<Graded> bench_grade;
  if (options.with_bench) {
    const Run bench{"bench",
                    same_load(client, std::get<Graded>(client_grade)),
                    dir.file("bench-results.json"),
                    dir.file("bench-truth.jsonl"),
                    true,
                    "{results}"};
    const auto bench_end = run_against_server(bench, options.sim, options.timeout_s);
    if (const auto* started = std::get_if<ChildEnd>(&bench_end); started && started->started) {
      auto own = graded(bench, *started);
      if (auto* ok = std::get_if<Graded>(&own)) {
        bench_grade = std::move(*ok);
      } else {
        err << "bench grade: bench's own run: " << std::get<std::string>(own) << "\n";
      }
    }
  }
  const Graded& result = std::get<Graded>(client_grade);
  if (options.format == cli::OutputFormat::json) {
    out << grade_json(result, bench_grade).dump(2) << "\n";
  } else {
    out << grade_text(result, bench_grade);
  }
  return cli::kExitOk;
}

}  // namespace bench::app
