#pragma once
// --help in plain words, as the peers' help reads (vllm bench serve's argparse, h2load's
// "--requests=<N>"): each flag with a placeholder for its value and its default said in words,
// `--num-prompts N (default 1000)`, instead of CLI11's type strings (`INT:INT in [1 - 1000]=1000`,
// `--no-shuffle{false}`). Ranges and units belong in the flag's description.
#include <map>
#include <string>

#include <CLI/CLI.hpp>

namespace bench::cli {

/// The word standing for an option's value: its option_text() when it sets one, the choices of
/// an IsMember check (chat|completions), else N (whole numbers), NUM, FILE or TEXT by its type.
std::string value_placeholder(const CLI::Option& option);

/// CLI11's formatter with bench's wording. Give it to the top-level app before adding
/// subcommands: CLI11 copies the formatter into each one added later.
class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter();

  /// Under `group`'s heading, print `line` instead of the group's flags (they still parse and
  /// complete): for a group whose flags another command's help lists.
  void summarize_group(std::string group, std::string line);

  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override;
  std::string make_usage(const CLI::App* app, std::string name) const override;
  std::string make_option(const CLI::Option* option, bool is_positional) const override;
  std::string make_option_name(const CLI::Option* option, bool is_positional) const override;
  std::string make_option_opts(const CLI::Option* option) const override;

 private:
  std::string make_option_groups(const CLI::App* app, CLI::AppFormatMode mode) const;

  std::map<std::string, std::string> summarized_;  // group -> the line printed instead
};

/// "bench serve-sim": the command's name as typed, its parents first.
std::string command_path(const CLI::App& command);

}  // namespace bench::cli
