// The simulator's flags are spelled --sim-NAME on a run and --NAME on serve-sim; each one's help
// names the others in its own command's spelling (issue 45: the run's help said --time-scale and
// --stall-s, which a run refuses).
#include <gtest/gtest.h>

#include "bench/cli/peer_flags.hpp"

#include <regex>
#include <set>
#include <string>

#include "bench/cli/options.hpp"
#include "parse_run_options.hpp"

namespace {

using bench::testing::parse_args;

// Every long flag a help text declares (at the start of its line, after the indent).
std::set<std::string> declared_flags(const std::string& help) {
  std::set<std::string> flags;
  const std::regex declared(R"((?:^|\n)\s+(?:-\w,)?(--[a-z0-9-]+))");
  for (std::sregex_iterator it(help.begin(), help.end(), declared), end; it != end; ++it) {
    flags.insert((*it)[1]);
  }
  return flags;
}

// Every long flag a help text names as a run's: anywhere, except after "serve-sim " (as in
// "serve-sim --replay", which names serve-sim's own flag).
std::set<std::string> named_flags(const std::string& help) {
  std::set<std::string> flags;
  const std::regex named(R"((?:^|[^a-z0-9-])(--[a-z][a-z0-9-]*))");
  for (std::sregex_iterator it(help.begin(), help.end(), named), end; it != end; ++it) {
    const auto at = static_cast<std::size_t>(it->position(1));
    if (at >= 10 && help.compare(at - 10, 10, "serve-sim ") == 0) continue;
    flags.insert((*it)[1]);
  }
  return flags;
}

// Peers' flags the help quotes as such ("vLLM's --max-num-seqs"), not bench's.
const std::set<std::string> kPeersFlags = {"--max-num-seqs", "--max-num-batched-tokens",
                                           "--chunked-prefill-size"};

TEST(SimHelp, TheRunsHelpNamesOnlyFlagsARunHas) {
  const std::string help = parse_args({"--help"}).message;
  const std::set<std::string> declared = declared_flags(help);
  ASSERT_TRUE(declared.contains("--num-prompts")) << "the help's layout changed";
  const std::string serve_sim = parse_args({"serve-sim", "--help"}).message;
  for (const std::string& flag : named_flags(help)) {
    // The peers' flags a run takes, folded into one pointer line (cli/peer_flags.hpp).
    const bool peer_flag_of_a_run =
        std::string_view(bench::cli::kPeerFlagsPointer).find(flag) != std::string_view::npos;
    if (declared.contains(flag) || kPeersFlags.contains(flag) || peer_flag_of_a_run) continue;
    // A simulator flag in serve-sim's spelling, which a run does not take.
    EXPECT_FALSE(declared_flags(serve_sim).contains(flag))
        << flag << " is serve-sim's spelling; a run's is --sim-" << flag.substr(2);
  }
}

TEST(SimHelp, ServeSimsHelpNamesItsOwnSpelling) {
  const std::string help = parse_args({"serve-sim", "--help"}).message;
  EXPECT_NE(help.find("--ttft-ms, then a token every --tpot-ms"), std::string::npos) << help;
  EXPECT_EQ(help.find("--sim-"), std::string::npos) << "serve-sim's help names a run's spelling";
}

}  // namespace
