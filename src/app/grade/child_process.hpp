#pragma once
// A client's command run to its end with a time limit: stopped with SIGTERM (then SIGKILL) when
// it runs over, its stdout sent to our stderr so that bench's own stdout holds only the grade. It
// stays in bench's process group, so the terminal's Ctrl-C reaches it as it reaches bench.
#include <string>
#include <utility>
#include <vector>

namespace bench::app {

struct ChildEnd {
  bool started = false;
  int exit_code = -1;      // its exit status, or 128 + the signal that ended it
  bool timed_out = false;  // stopped at the time limit
  std::string error;       // why it could not be started
};

/// `discard_stdout`: its stdout goes nowhere (bench's own run, whose report is not the grade's).
ChildEnd run_child(const std::vector<std::string>& argv,
                   const std::vector<std::pair<std::string, std::string>>& environment,
                   double timeout_s, bool discard_stdout);

}  // namespace bench::app
