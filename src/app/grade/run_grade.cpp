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
#include "graded_run.hpp"

namespace bench::app {

namespace {

using nlohmann::json;

// bench's own command for the client's load: its concurrency cap or its rate, its completed
// requests, its mean lengths (the server counts words, as bench does without a tokenizer).
std::vector<std::string> same_load(const Run& client, const Graded& graded_client) {
  json raw = json::parse(std::ifstream(client.results_path), nullptr, false);
  if (!raw.is_object()) raw = json::object();
  BenchLoad load;
  load.requests = std::max<std::int64_t>(graded_client.completed, 1);
  const auto mean_of = [&](const char* key) {
    const double total = raw.value(key, 0.0);
    return std::max<std::int64_t>(1, std::llround(total / static_cast<double>(load.requests)));
  };
  read_cap_and_rate(raw, load);
  load.input_len = mean_of("total_input_tokens");
  load.output_len = mean_of("total_output_tokens");
  return bench_command(load);
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
