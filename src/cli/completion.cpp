#include "bench/cli/completion.hpp"

#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace bench::cli {

namespace {

// What completes after one command (the top level, or a subcommand): its flags, those of them
// that take a value, and its subcommands.
struct CommandWords {
  std::string name;  // empty for the top level
  std::vector<std::string> flags;
  std::vector<std::string> value_flags;
  std::vector<std::string> subcommands;
};

// Shown by --help: CLI11 hides an option or a subcommand whose group is empty.
bool shown(const CLI::Option* option) { return !option->get_group().empty(); }
bool shown(const CLI::App* command) {
  return !command->get_group().empty() && !command->get_name().empty();
}

CommandWords words_of(const CLI::App& command) {
  CommandWords words;
  words.name = command.get_parent() == nullptr ? "" : command.get_name();
  for (const CLI::Option* option : command.get_options()) {
    if (!shown(option) || !option->nonpositional()) continue;
    std::vector<std::string> names;
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
    // CLI11 expects no value of a flag (expected(0)); an option may read one.
    const bool takes_value = option->get_expected_max() > 0;
    for (const std::string& name : names) {
      words.flags.push_back(name);
      if (takes_value) words.value_flags.push_back(name);
    }
  }
  for (const CLI::App* sub :
       command.get_subcommands([](const CLI::App* app) { return shown(app); })) {
    words.subcommands.push_back(sub->get_name());
  }
  return words;
}

std::vector<CommandWords> all_commands(const CLI::App& app) {
  std::vector<CommandWords> commands{words_of(app)};
  for (const std::string& name : commands.front().subcommands) {
    commands.push_back(words_of(*app.get_subcommand(name)));
  }
  return commands;
}

// bash: no bash-completion helpers needed (plain COMP_WORDS), so `source` works anywhere.
// complete -o default: an empty answer falls back to file names, for a flag's value and for
// the positional arguments (compare's, report's and merge's files).
std::string bash_script(const std::vector<CommandWords>& commands) {
  const CommandWords& top = commands.front();
  std::string cases;
  for (auto it = commands.rbegin(); it != commands.rend(); ++it) {
    cases +=
        fmt::format("    {})\n      flags='{}'\n      values='{}'\n      subcommands='{}' ;;\n",
                    it->name.empty() ? "*" : it->name, fmt::join(it->flags, " "),
                    fmt::join(it->value_flags, " "), fmt::join(it->subcommands, " "));
  }
  return fmt::format(
      R"(# bash completion for bench, written by `bench completion bash` from the command line's own
# definitions (those --help prints): regenerate it rather than edit it.
_bench() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}} command= i
  # The subcommand is the first word that names one, the value of a top-level flag excepted.
  local top_values=' {} '
  for (( i = 1; i < COMP_CWORD; i++ )); do
    [[ $top_values == *" ${{COMP_WORDS[i-1]}} "* ]] && continue
    case ${{COMP_WORDS[i]}} in
      {}) command=${{COMP_WORDS[i]}}; break ;;
    esac
  done
  local flags values subcommands
  case $command in
{}  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [[ $prev == = || " $values " == *" $prev "* ]]; then
    COMPREPLY=()  # a flag's value (after "--flag" or "--flag="): file names
  else
    COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))
  fi
}}
complete -o default -F _bench bench
)",
      fmt::join(top.value_flags, " "), fmt::join(top.subcommands, "|"), cases);
}

// zsh: the same words with compadd; works autoloaded from a fpath directory (#compdef) or
// sourced after compinit.
std::string zsh_script(const std::vector<CommandWords>& commands) {
  const CommandWords& top = commands.front();
  std::string cases;
  for (auto it = commands.rbegin(); it != commands.rend(); ++it) {
    cases +=
        fmt::format("    ({})\n      flags=({})\n      values=({})\n      subcommands=({}) ;;\n",
                    it->name.empty() ? "*" : it->name, fmt::join(it->flags, " "),
                    fmt::join(it->value_flags, " "), fmt::join(it->subcommands, " "));
  }
  return fmt::format(
      R"(#compdef bench
# zsh completion for bench, written by `bench completion zsh` from the command line's own
# definitions (those --help prints): regenerate it rather than edit it.
_bench() {{
  local command= i
  local -a top_values=({}) flags values subcommands
  for (( i = 2; i < CURRENT; i++ )); do
    (( ${{top_values[(Ie)${{words[i-1]}}]}} )) && continue
    case ${{words[i]}} in
      ({}) command=${{words[i]}}; break ;;
    esac
  done
  case $command in
{}  esac
  if [[ ${{words[CURRENT]}} == -* ]]; then
    compadd -a flags
  elif (( ${{values[(Ie)${{words[CURRENT-1]}}]}} )); then
    _files
  else
    compadd -a subcommands
    _files
  fi
}}
if [[ ${{zsh_eval_context[-1]}} == loadautofunc ]]; then
  _bench "$@"
else
  compdef _bench bench
fi
)",
      fmt::join(top.value_flags, " "), fmt::join(top.subcommands, "|"), cases);
}

}  // namespace

std::string completion_script(const CLI::App& app, std::string_view shell) {
  const std::vector<CommandWords> commands = all_commands(app);
  if (shell == "bash") return bash_script(commands);
  if (shell == "zsh") return zsh_script(commands);
  throw std::invalid_argument(fmt::format("no completion for shell '{}'", shell));
}

}  // namespace bench::cli
