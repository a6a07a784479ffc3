#include "bench/cli/unknown_flag.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "bench/util/nearest_name.hpp"

namespace bench::cli {
namespace {

// "--name" for every long name of the command's flags, and of the commands above it (a
// subcommand also takes its parent's flags before its own name).
std::vector<std::string> long_flags(const CLI::App& command) {
  std::vector<std::string> flags;
  for (const CLI::App* app = &command; app != nullptr; app = app->get_parent()) {
    for (const CLI::Option* option : app->get_options()) {
      for (const std::string& name : option->get_lnames()) flags.push_back("--" + name);
    }
  }
  return flags;
}

}  // namespace

std::optional<std::string> unknown_flag_message(const CLI::App& command, int argc,
                                                const char* const* argv) {
  const std::vector<std::string> known = long_flags(command);
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;  // what follows is values, not flags
    if (!arg.starts_with("--") || arg.size() == 2) continue;
    const std::string flag(arg.substr(0, arg.find('=')));
    if (std::find(known.begin(), known.end(), flag) != known.end()) continue;
    const std::string suggestion = util::nearest_name(flag, known);
    return suggestion.empty() ? fmt::format("unknown flag {}", flag)
                              : fmt::format("unknown flag {} (did you mean {}?)", flag, suggestion);
  }
  return std::nullopt;
}

}  // namespace bench::cli
