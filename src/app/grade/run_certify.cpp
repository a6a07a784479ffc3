// `bench certify RESULTS.json` (certify.hpp): the run's load replayed by bench against a loopback
// twin of its server, graded against the twin's truth log.
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/app/grade/certify.hpp"
#include "bench/cli/exit_codes.hpp"
#include "bench/results/peer_file_read.hpp"
#include "bench/results/read_file.hpp"
#include "graded_run.hpp"

namespace bench::app {

namespace {

using nlohmann::json;

std::optional<double> number(const json& run, const char* key) {
  const auto found = run.find(key);
  if (found == run.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

std::string whole(double value) {
  return std::to_string(std::max<long long>(1, std::llround(value)));
}

// The twin's load: the run's endpoint, concurrency cap or rate, requests (at most `window`),
// mean lengths and event loops.
struct Load {
  std::vector<std::string> argv;
  std::string words;  // "24 requests at concurrency 4, chat, 1 event loop"
};

Load twin_load(const json& run, std::int64_t window) {
  const std::int64_t n = std::min<std::int64_t>(window, run.value("completed", std::int64_t{1}));
  Load load;
  load.argv = {std::filesystem::read_symlink("/proc/self/exe").string(),
               "--base-url",
               "{url}",
               "--endpoint",
               run.value("endpoint", std::string("chat")),
               "--num-prompts",
               std::to_string(n)};
  const auto cap = run.find("max_concurrency");
  const std::string concurrency = cap != run.end() && cap->is_number_integer()
                                      ? std::to_string(cap->get<std::int64_t>())
                                      : std::to_string(n);
  load.argv.insert(load.argv.end(), {"--concurrency", concurrency});
  std::string rate_words;
  if (const auto rate = number(run, "request_rate"); rate && std::isfinite(*rate)) {
    load.argv.insert(load.argv.end(), {"--request-rate", fmt::format("{}", *rate)});
    rate_words = fmt::format(", {} req/s", *rate);
  }
  const std::int64_t threads =
      run.value("client", json::object()).value("threads", std::int64_t{0});
  if (threads > 0) load.argv.insert(load.argv.end(), {"--client-threads", std::to_string(threads)});
  load.argv.insert(
      load.argv.end(),
      {"--input-len", whole(number(run, "mean_prompt_tokens").value_or(1)), "--output-len",
       whole(number(run, "mean_completion_tokens").value_or(1)), "--ignore-eos",
       "--warmup-requests", "0", "--no-answer-check", "--quiet", "--output-file", "{results}"});
  load.words = fmt::format("{} requests at concurrency {}{}, {}{}", n, concurrency, rate_words,
                           run.value("endpoint", std::string("chat")),
                           threads > 0 ? fmt::format(", {} event loop(s)", threads) : "");
  return load;
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

struct FigureError {
  std::string_view key = {}, label = {};
  std::optional<double> run_p99 = {}, error_p50 = {}, error_p99 = {}, share = {};
  bool flagged = false;
};

std::vector<FigureError> figure_errors(const json& run, const Graded& twin, double flag_share) {
  std::vector<FigureError> errors;
  const std::pair<std::string_view, std::string_view> figures[] = {
      {"ttft", "TTFT"}, {"icl", "ICL"}, {"tpot", "TPOT"}, {"e2e_latency", "E2E"}};
  for (const auto& [key, label] : figures) {
    FigureError e;
    e.key = key;
    e.label = label;
    const std::string p50 = fmt::format("median_{}_ms", key);
    const std::string p99 = fmt::format("p99_{}_ms", key);
    e.run_p99 = number(run, p99.c_str());
    const auto diff = [&](const std::string& k) -> std::optional<double> {
      const auto value = twin.figures.at(k);
      const auto truth = twin.truth.figures.at(k);
      if (!value || !truth) return std::nullopt;
      return *value - *truth;
    };
    e.error_p50 = diff(p50);
    e.error_p99 = diff(p99);
    if (e.error_p99 && e.run_p99 && *e.run_p99 > 0) e.share = std::abs(*e.error_p99) / *e.run_p99;
    e.flagged = e.share && *e.share > flag_share;
    errors.push_back(e);
  }
  return errors;
}

std::string signed_ms(std::optional<double> value) {
  return value ? fmt::format("{:+.2f}", *value) : std::string("n/a");
}

}  // namespace

int run_certify(const cli::CertifyOptions& options, std::ostream& out, std::ostream& err) {
  auto file = results::read_results_file(options.results_path);
  if (const auto* error = std::get_if<results::FormatError>(&file)) {
    err << "bench certify: error: " << error->message << "\n";
    return cli::kExitUsage;
  }
  const json& run = std::get<results::ResultsFile>(file).results;
  if (std::get<results::ResultsFile>(file).kind != results::Kind::run ||
      run.contains(std::string(results::kPeerFileKey))) {
    err << "bench certify: error: " << options.results_path
        << ": a certificate is of one run of bench's own\n";
    return cli::kExitUsage;
  }
  const auto ttft = number(run, "median_ttft_ms");
  const auto tpot = number(run, "median_tpot_ms");
  if (!ttft || !tpot) {
    err << "bench certify: error: " << options.results_path
        << ": the run timed no streamed answer (no TTFT or TPOT): nothing to certify\n";
    return cli::kExitUsage;
  }
  sim::SimOptions twin;  // the fixed profile, answering as the run's server did (its medians)
  twin.ttft_ms = *ttft;
  twin.tpot_ms = *tpot;
  const GradeDir dir;
  const Load load = twin_load(run, options.window);
  const Run replay{"bench on the twin",          load.argv, dir.file("twin-results.json"),
                   dir.file("twin-truth.jsonl"), true,      "{results}"};
  const double cpu_before = cpu_seconds();
  const auto wall_start = std::chrono::steady_clock::now();
  const auto end = run_against_server(replay, twin, options.timeout_s);
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const double server_cpu_s = cpu_seconds() - cpu_before;
  const ChildEnd* ended = std::get_if<ChildEnd>(&end);
  if (ended == nullptr || !ended->started) {
    err << "bench certify: error: "
        << (ended == nullptr ? std::get<std::string>(end) : "cannot run bench: " + ended->error)
        << "\n";
    return cli::kExitRunFailed;
  }
  auto graded_twin = graded(replay, *ended);
  if (const auto* error = std::get_if<std::string>(&graded_twin)) {
    err << "bench certify: error: " << *error << "\n";
    return cli::kExitRunFailed;
  }
  const std::vector<FigureError> errors =
      figure_errors(run, std::get<Graded>(graded_twin), options.flag_share);
  const std::string twin_words = fmt::format(
      "this host's embedded server answering as the run's did (TTFT {:.2f} ms, {:.2f} ms a "
      "token: the run's medians), {}; its server took {:.2f} s of CPU over {:.2f} s",
      *ttft, *tpot, load.words, server_cpu_s, wall_s);
  const std::string blind =
      "an estimate of a different run on the same cores: it cannot see the network, TLS or a "
      "remote server's NIC";
  if (options.format == cli::OutputFormat::json) {
    json figures = json::object();
    json flagged = json::array();
    for (const FigureError& e : errors) {
      const auto value = [](std::optional<double> v) { return v ? json(*v) : json(nullptr); };
      figures[std::string(e.key)] = {{"run_p99_ms", value(e.run_p99)},
                                     {"client_error_p50_ms", value(e.error_p50)},
                                     {"client_error_p99_ms", value(e.error_p99)},
                                     {"share_of_run_p99", value(e.share)}};
      if (e.flagged) flagged.push_back(e.key);
    }
    out << json{{"client_error",
                 {{"twin", twin_words},
                  {"server_cpu_s", server_cpu_s},
                  {"wall_s", wall_s},
                  {"estimate", blind},
                  {"flag_over_share", options.flag_share},
                  {"flagged", flagged},
                  {"figures", figures}}}}
               .dump(2)
        << "\n";
    return cli::kExitOk;
  }
  out << "Client error, measured on a loopback twin (bench certify " << options.results_path
      << "):\n  twin: " << twin_words << ".\n"
      << fmt::format("  {:<8} {:>10} {:>18} {:>9} {:>24}\n", "figure", "run p99",
                     "client error p50", "p99", "share of the run's p99");
  bool any_flagged = false;
  for (const FigureError& e : errors) {
    out << fmt::format("  {:<8} {:>10} {:>18} {:>9} {:>24}{}\n", e.label,
                       e.run_p99 ? fmt::format("{:.2f}", *e.run_p99) : "n/a",
                       signed_ms(e.error_p50), signed_ms(e.error_p99),
                       e.share ? fmt::format("{:.1f}%", *e.share * 100) : "n/a",
                       e.flagged ? "  FLAGGED" : "");
    any_flagged |= e.flagged;
  }
  out << (any_flagged
              ? fmt::format("  verdict: the client's error exceeds {:.0f}% of a figure it bounds "
                            "(FLAGGED): that figure is partly the client's\n",
                            options.flag_share * 100)
              : fmt::format("  verdict: within {:.0f}% of every figure it bounds\n",
                            options.flag_share * 100))
      << "  " << blind << ".\n";
  return cli::kExitOk;
}

}  // namespace bench::app
