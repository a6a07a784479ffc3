// The progress line is drawn on a terminal's stderr only, and --disable-tqdm (vLLM's and
// SGLang's flag for their progress bar) takes it away while the notes stay. bench runs under
// util-linux's script(1), which gives it a pseudo-terminal, so its stderr is a tty as a user's is.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "run_process.hpp"

namespace progress_line_test {

using bench::testing::ProcessResult;
using bench::testing::run_process;

// bench on a pseudo-terminal: about a second of requests against its embedded server, so the
// line (refreshed every 250 ms) is drawn a few times. What the terminal showed, stdout and
// stderr together.
std::string terminal_of(const std::string& extra) {
  const std::string command = std::string(BENCH_BINARY) +
                              " --num-prompts 24 --concurrency 4 --input-len 16 --output-len 40"
                              " --sim-ttft-ms 5 --sim-tpot-ms 5 --no-answer-check " +
                              extra;
  const ProcessResult run = run_process("/usr/bin/script", {"-qec", command, "/dev/null"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  return run.out;
}

TEST(ProgressLine, IsDrawnOnATerminalAndDisableTqdmTakesItAwayNotTheNotes) {
  const std::string with_line = terminal_of("");
  EXPECT_NE(with_line.find("24 done"), std::string::npos) << with_line;
  const std::string without_line = terminal_of("--disable-tqdm");
  EXPECT_EQ(without_line.find(" done"), std::string::npos) << without_line;
  // The notes stay: the start-up line naming the embedded server.
  EXPECT_NE(without_line.find("bench: "), std::string::npos) << without_line;
  EXPECT_NE(without_line.find("Output token throughput"), std::string::npos) << without_line;
}

}  // namespace progress_line_test
