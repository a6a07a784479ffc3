// --help reads like the peers' (issue 45): about bench, the simulator's --sim-* flags named in
// one line that points to serve-sim's help, values and defaults in words, no CLI11 type strings;
// usage errors for what is missing in one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "bench/cli/options.hpp"
#include "bench/cli/sim_flags.hpp"
#include "parse_run_options.hpp"

namespace {

using bench::testing::parse_args;

std::string help_of(std::vector<std::string> args) {
  args.push_back("--help");
  const bench::cli::ParseResult parsed = parse_args(std::move(args));
  EXPECT_EQ(parsed.exit_code, 0) << parsed.message;
  return parsed.message;
}

// The long flags a help declares: those that start a line, after its indent.
std::set<std::string> flags_listed_by(const std::string& help) {
  std::set<std::string> flags;
  const std::regex listed(R"((?:^|\n) +(?:-\w,)?(--[a-z0-9-]+))");
  for (std::sregex_iterator it(help.begin(), help.end(), listed), end; it != end; ++it) {
    flags.insert((*it)[1]);
  }
  return flags;
}

const std::vector<std::vector<std::string>> kEveryCommand = {
    {},         {"serve-sim"}, {"compare"}, {"report"},    {"export"},
    {"search"}, {"merge"},     {"record"},  {"completion"}};

TEST(Help, TheRunsHelpNamesTheSimFlagsInOneLineThatPointsToServeSim) {
  for (const auto& command : {std::vector<std::string>{}, std::vector<std::string>{"search"}}) {
    const std::string help = help_of(command);
    for (const std::string& flag : flags_listed_by(help)) {
      EXPECT_FALSE(flag.starts_with("--sim-")) << flag << " is listed by serve-sim's help";
    }
    EXPECT_NE(help.find(std::string(bench::cli::kEmbeddedServerGroup) + ":\n  " +
                        std::string(bench::cli::kEmbeddedServerPointer) + "\n"),
              std::string::npos)
        << help;
  }
}

TEST(Help, ServeSimListsEverySimFlagTheRunTakes) {
  // The run's --sim-* flags, from the completion script (it completes every flag a run takes).
  const std::string script = parse_args({"completion", "bash"}).message;
  std::set<std::string> sim_flags;
  const std::regex sim_flag(R"(--sim-[a-z0-9-]+)");
  for (std::sregex_iterator it(script.begin(), script.end(), sim_flag), end; it != end; ++it) {
    sim_flags.insert(it->str());
  }
  ASSERT_GT(sim_flags.size(), 50U);
  const std::set<std::string> serve_sim = flags_listed_by(help_of({"serve-sim"}));
  for (const std::string& flag : sim_flags) {
    EXPECT_TRUE(serve_sim.contains("--" + flag.substr(6))) << flag;
  }
}

TEST(Help, ASimFlagLeftOutOfTheHelpStillParsesAndCompletes) {
  const bench::cli::RunOptions run =
      bench::testing::parse_run_options({"--sim-ttft-ms", "5", "--sim-time-scale", "10"});
  EXPECT_EQ(run.sim.ttft_ms, 5);
  EXPECT_EQ(run.sim.time_scale, 10);
  for (const char* shell : {"bash", "zsh"}) {
    EXPECT_NE(parse_args({"completion", shell}).message.find(" --sim-time-scale "),
              std::string::npos)
        << shell;
  }
}

TEST(Help, NoHelpShowsTheParsersTypeStrings) {
  for (const auto& command : kEveryCommand) {
    const std::string help = help_of(command);
    const std::string name = "bench " + (command.empty() ? "" : command.front()) + " --help";
    for (const char* internal : {"{false}", "REQUIRED", "Env:", ":{"}) {
      EXPECT_EQ(help.find(internal), std::string::npos) << name << " shows " << internal;
    }
    // A type (INT:, TEXT=64) or a range as CLI11 writes them (in [1 - 1000000000]).
    std::smatch type;
    EXPECT_FALSE(std::regex_search(
        help, type, std::regex(R"((U?INT|FLOAT|TEXT)[=:]|in \[-?[0-9.e+]+ - [0-9.e+]+\])")))
        << name << " shows " << type.str();
  }
}

TEST(Help, SaysEachValueAndDefaultInWords) {
  const std::string help = help_of({});
  for (const char* line :
       {"\n  --num-prompts N (default 1000) ",
        "\n  --endpoint chat|completions|responses|messages (default chat)\n", "\n  --no-shuffle ",
        "\n  --client-threads auto|N (default auto)\n", "\n  -q,--quiet "}) {
    EXPECT_NE(help.find(line), std::string::npos) << line;
  }
  // --dataset trace needs it: it has no default to show.
  EXPECT_NE(help.find("\n  --trace-format mooncake|azure|burstgpt|weka\n"), std::string::npos);
}

TEST(Help, ListsCompletionAmongTheSubcommands) {
  const std::string help = help_of({});
  const std::size_t subcommands = help.find("\nSubcommands:\n");
  ASSERT_NE(subcommands, std::string::npos);
  EXPECT_NE(help.find("\n  completion ", subcommands), std::string::npos) << help;
}

// 391 lines before issue 45 (62 of them --sim-* flags, most flags on two lines); 220 after.
TEST(Help, StaysShort) {
  const std::string help = help_of({});
  EXPECT_LE(std::count(help.begin(), help.end(), '\n'), 230) << help;
}

TEST(Help, UsageOfASubcommandNamesBench) {
  EXPECT_NE(help_of({"serve-sim"}).find("Usage: bench serve-sim [OPTIONS]\n"), std::string::npos);
}

TEST(Help, SomethingMissingIsOneLineInWords) {
  EXPECT_EQ(parse_args({"completion"}).message,
            "bench: error: bench completion: missing shell (usage: bench completion [OPTIONS] "
            "shell)\n");
  EXPECT_EQ(parse_args({"compare"}).message,
            "bench: error: bench compare: missing base and new (usage: bench compare [OPTIONS] "
            "base new)\n");
  EXPECT_EQ(parse_args({"--num-prompts"}).message,
            "bench: error: --num-prompts: give it a value: N\n");
  EXPECT_EQ(parse_args({"--dataset", "trace", "--trace-format"}).message,
            "bench: error: --trace-format: give it a value: mooncake|azure|burstgpt|weka\n");
  EXPECT_EQ(parse_args({"compare"}).exit_code, 2);
}

}  // namespace
