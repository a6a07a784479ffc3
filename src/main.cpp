// bench: parse the command line, run the command, map the outcome to an exit code.
// Everything else lives in the modules under src/.
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <exception>
#include <iostream>

#include "bench/app/certify/certify.hpp"
#include "bench/app/conform/conformance.hpp"
#include "bench/app/grade/grade.hpp"
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
#include "bench/util/clock.hpp"
#include "bench/util/stop_flag.hpp"

namespace {

// The one piece of process-wide state: a signal handler can reach nothing else. Its one word is
// a lock-free atomic, so the handler may touch it (util/stop_flag.hpp has the rules).
bench::StopFlag g_stop;

// Async-signal-safe (POSIX.1-2017 2.4.3 lists write, _exit and clock_gettime).
void say(const char* message, std::size_t size) { (void)!::write(STDERR_FILENO, message, size); }

std::int64_t monotonic_ms() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return bench::timespec_to_ns(now) / bench::kNsPerMs;
}

// A run or a search: the first signal of the measured phase stops it after the grace period;
// a later one (more than a second on) cancels in-flight requests and writes what was measured.
void stop_run() {
  switch (g_stop.note_signal(monotonic_ms())) {
    case bench::StopFlag::Verdict::exit_now: {
      static const char before[] = "\nbench: interrupted before anything was measured; exiting\n";
      static const char after[] = "\nbench: third interrupt, exiting without results\n";
      if (g_stop.load()) {
        say(after, sizeof after - 1);
      } else {
        say(before, sizeof before - 1);
      }
      ::_exit(bench::cli::kExitInterrupted);
    }
    case bench::StopFlag::Verdict::stop: {
      static const char message[] =
          "\nbench: interrupt: no new requests; in-flight ones may finish within --grace "
          "(interrupt again to cancel them now; results are written either way)\n";
      say(message, sizeof message - 1);
      return;
    }
    case bench::StopFlag::Verdict::force: {
      static const char message[] =
          "\nbench: second interrupt: cancelling in-flight requests, writing what was measured "
          "(a third exits without results)\n";
      say(message, sizeof message - 1);
      return;
    }
    case bench::StopFlag::Verdict::same_signal: return;
  }
}

// The interrupted code may read errno after the handler returns: write() must not change it.
extern "C" void on_stop_signal(int) {
  const int saved_errno = errno;
  stop_run();
  errno = saved_errno;
}

// serve-sim and record: the first signal stops serving (recording) cleanly; a later one exits.
void stop_or_exit(const char* message, std::size_t size) {
  switch (g_stop.note_signal(monotonic_ms())) {
    case bench::StopFlag::Verdict::stop: say(message, size); return;
    case bench::StopFlag::Verdict::same_signal: return;
    case bench::StopFlag::Verdict::force:
    case bench::StopFlag::Verdict::exit_now: ::_exit(bench::cli::kExitInterrupted);
  }
}

extern "C" void on_serve_sim_stop_signal(int) {
  const int saved_errno = errno;
  static const char message[] = "\nbench serve-sim: interrupt: stopping the server\n";
  stop_or_exit(message, sizeof message - 1);
  errno = saved_errno;
}

extern "C" void on_record_stop_signal(int) {
  const int saved_errno = errno;
  static const char message[] = "\nbench record: interrupt: writing the complete exchanges\n";
  stop_or_exit(message, sizeof message - 1);
  errno = saved_errno;
}

void install_signal_handlers(bench::cli::Command command) {
  struct sigaction action {};
  action.sa_handler = command == bench::cli::Command::serve_sim ? on_serve_sim_stop_signal
                      : command == bench::cli::Command::record  ? on_record_stop_signal
                                                                : on_stop_signal;
  // serve-sim and record serve from the start; a run's measured phase begins when the run says.
  if (command == bench::cli::Command::serve_sim || command == bench::cli::Command::record) {
    g_stop.begin_measuring();
  }
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
        return bench::sim::run_serve_sim(parsed.serve_sim, g_stop, bench::app::open_tokenizer_file);
      case bench::cli::Command::record: return bench::record::run_record(parsed.record, g_stop);
      case bench::cli::Command::compare:
        return bench::app::run_compare(parsed.compare, std::cout, std::cerr);
      case bench::cli::Command::report:
        return bench::app::run_report(parsed.report, std::cout, std::cerr);
      case bench::cli::Command::export_results:
        return bench::app::run_export(parsed.export_options, std::cout, std::cerr);
      case bench::cli::Command::merge:
        return bench::app::run_merge(parsed.merge, std::cout, std::cerr);
      case bench::cli::Command::certify:
        return bench::app::run_certify(parsed.certify, std::cout, std::cerr);
      case bench::cli::Command::grade:
        return bench::app::run_grade(parsed.grade, std::cout, std::cerr);
      case bench::cli::Command::version:
        std::cout << bench::app::version_text();
        return bench::cli::kExitOk;
      case bench::cli::Command::run:
      case bench::cli::Command::search:
      case bench::cli::Command::conformance: break;
    }
    const bench::engine::CurlGlobal curl;
    if (parsed.command == bench::cli::Command::conformance) {
      return bench::app::run_conformance(parsed.conformance, std::cout, std::cerr);
    }
    if (parsed.command == bench::cli::Command::search) {
      return bench::app::run_search(parsed.run, parsed.search, g_stop, std::cout, std::cerr);
    }
    return bench::app::run_benchmark(parsed.run, g_stop, std::cout, std::cerr);
  } catch (const std::exception& error) {
    std::cerr << "bench: error: " << error.what() << "\n";
    return bench::cli::kExitRunFailed;
  }
}
