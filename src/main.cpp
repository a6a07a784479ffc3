// bench: parse the command line, run the command, map the outcome to an exit code.
// Everything else lives in the modules under src/.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>

#include "bench/app/plan/provenance.hpp"
#include "bench/app/run/commands.hpp"
#include "bench/app/run/run_benchmark.hpp"
#include "bench/app/search/run_search.hpp"
#include "bench/app/server/tokenizer_files.hpp"
#include "bench/cli/exit_codes.hpp"
#include "bench/cli/options.hpp"
#include "bench/engine/curl_handles.hpp"
#include "bench/record/record.hpp"
#include "bench/sim/serve.hpp"

namespace {

// The one piece of process-wide state: a signal handler can reach nothing else. A lock-free
// atomic is async-signal-safe.
std::atomic<bool> g_stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free);

// First SIGINT/SIGTERM: ask the run to stop (finish in-flight requests within the grace period,
// then report). Second: exit at once.
extern "C" void on_stop_signal(int) {
  if (g_stop_requested.exchange(true)) {
    static const char message[] = "\nbench: second interrupt, exiting without results\n";
    (void)!::write(STDERR_FILENO, message, sizeof message - 1);
    ::_exit(bench::cli::kExitInterrupted);
  }
  static const char message[] =
      "\nbench: interrupt: no new requests; finishing in-flight ones (Ctrl-C again to quit)\n";
  (void)!::write(STDERR_FILENO, message, sizeof message - 1);
}

// serve-sim has no requests of its own in flight: it stops serving.
extern "C" void on_serve_sim_stop_signal(int) {
  if (g_stop_requested.exchange(true)) ::_exit(bench::cli::kExitInterrupted);
  static const char message[] = "\nbench serve-sim: interrupt: stopping the server\n";
  (void)!::write(STDERR_FILENO, message, sizeof message - 1);
}

// record: stop forwarding, write every exchange whose response is complete.
extern "C" void on_record_stop_signal(int) {
  if (g_stop_requested.exchange(true)) ::_exit(bench::cli::kExitInterrupted);
  static const char message[] = "\nbench record: interrupt: writing the complete exchanges\n";
  (void)!::write(STDERR_FILENO, message, sizeof message - 1);
}

void install_signal_handlers(bench::cli::Command command) {
  struct sigaction action {};
  action.sa_handler = command == bench::cli::Command::serve_sim ? on_serve_sim_stop_signal
                      : command == bench::cli::Command::record  ? on_record_stop_signal
                                                                : on_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  // libcurl runs with CURLOPT_NOSIGNAL, so a peer closing a socket must not kill the process.
  std::signal(SIGPIPE, SIG_IGN);
}

}  // namespace

int main(int argc, char** argv) {
  const bench::cli::ParseResult parsed = bench::cli::parse_cli(argc, argv);
  if (parsed.exit_code) {
    std::fputs(parsed.message.c_str(), *parsed.exit_code == 0 ? stdout : stderr);
    return *parsed.exit_code;
  }
  install_signal_handlers(parsed.command);
  try {
    switch (parsed.command) {
      case bench::cli::Command::serve_sim:
        return bench::sim::run_serve_sim(parsed.serve_sim, g_stop_requested,
                                         bench::app::open_tokenizer_file);
      case bench::cli::Command::record:
        return bench::record::run_record(parsed.record, g_stop_requested);
      case bench::cli::Command::compare:
        return bench::app::run_compare(parsed.compare, std::cout, std::cerr);
      case bench::cli::Command::report: return bench::app::run_report(parsed.report, std::cerr);
      case bench::cli::Command::export_results:
        return bench::app::run_export(parsed.export_options, std::cout, std::cerr);
      case bench::cli::Command::merge:
        return bench::app::run_merge(parsed.merge, std::cout, std::cerr);
      case bench::cli::Command::version:
        std::cout << bench::app::version_text();
        return bench::cli::kExitOk;
      case bench::cli::Command::run:
      case bench::cli::Command::search: break;
    }
    const bench::engine::CurlGlobal curl;
    if (parsed.command == bench::cli::Command::search) {
      return bench::app::run_search(parsed.run, parsed.search, g_stop_requested, std::cout,
                                    std::cerr);
    }
    return bench::app::run_benchmark(parsed.run, g_stop_requested, std::cout, std::cerr);
  } catch (const std::exception& error) {
    std::cerr << "bench: error: " << error.what() << "\n";
    return bench::cli::kExitRunFailed;
  }
}
