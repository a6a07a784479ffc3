#include "graded_run.hpp"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/results/format.hpp"
#include "bench/results/peer_file_read.hpp"
#include "bench/results/read_file.hpp"
#include "bench/sim/sim_server.hpp"
#include "bench/sim/trace_log_read.hpp"

namespace bench::app {

GradeDir::GradeDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "bench-grade-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error(fmt::format("cannot make {}", pattern));
  path_ = pattern;
}

GradeDir::~GradeDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

namespace {

using nlohmann::json;

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

}  // namespace

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
  if (const auto* error = std::get_if<std::string>(&truth))
    return fmt::format("the truth log: {}", *error);
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

void read_cap_and_rate(const json& results, BenchLoad& load) {
  const auto cap = results.find("max_concurrency");
  load.concurrency =
      cap != results.end() && cap->is_number_integer() ? cap->get<std::int64_t>() : load.requests;
  const std::optional<double> rate = results::number_at(results, "request_rate");  // "inf": none
  if (rate && std::isfinite(*rate)) load.rate = *rate;
}

std::vector<std::string> bench_command(const BenchLoad& load) {
  std::vector<std::string> argv = {std::filesystem::read_symlink("/proc/self/exe").string(),
                                   "--base-url",
                                   "{url}",
                                   "--endpoint",
                                   load.endpoint,
                                   "--num-prompts",
                                   std::to_string(load.requests),
                                   "--concurrency",
                                   std::to_string(load.concurrency)};
  if (load.rate) argv.insert(argv.end(), {"--request-rate", fmt::format("{}", *load.rate)});
  if (load.client_threads > 0) {
    argv.insert(argv.end(), {"--client-threads", std::to_string(load.client_threads)});
  }
  argv.insert(argv.end(), {"--input-len", std::to_string(load.input_len), "--output-len",
                           std::to_string(load.output_len), "--ignore-eos", "--warmup-requests",
                           "0", "--no-answer-check", "--quiet", "--output-file", "{results}"});
  return argv;
}

std::string load_words(const BenchLoad& load) {
  return fmt::format(
      "{} requests at concurrency {}{}, {}{}", load.requests, load.concurrency,
      load.rate ? fmt::format(", {} req/s", *load.rate) : "", load.endpoint,
      load.client_threads > 0 ? fmt::format(", {} event loop(s)", load.client_threads) : "");
}

}  // namespace bench::app
