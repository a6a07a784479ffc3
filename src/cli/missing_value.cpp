#include "bench/cli/missing_value.hpp"

#include <memory>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "bench/cli/help_format.hpp"

namespace bench::cli {

namespace {

// The usage line the command's --help writes, without "Usage: " and the newline.
std::string usage_of(const CLI::App& command) {
  const auto formatter = std::dynamic_pointer_cast<CLI::Formatter>(command.get_formatter());
  if (formatter == nullptr) return command_path(command);
  std::string usage = formatter->make_usage(&command, command_path(command));
  const std::size_t colon = usage.find(": ");
  if (colon != std::string::npos) usage.erase(0, colon + 2);
  while (!usage.empty() && usage.back() == '\n') usage.pop_back();
  return usage;
}

std::optional<std::string> missing_positionals(const CLI::App& command) {
  std::vector<std::string> missing;
  for (const CLI::Option* option : command.get_options()) {
    if (option->get_positional() && option->get_required() && option->count() == 0) {
      missing.push_back(option->get_name(true, false));
    }
  }
  if (missing.empty()) return std::nullopt;
  return fmt::format("{}: missing {} (usage: {})", command_path(command),
                     fmt::join(missing, " and "), usage_of(command));
}

// CLI11's ArgumentMismatch::TypedAtLeast: "NAME: N required TYPE missing".
std::optional<std::string> flag_without_value(const CLI::App& command, std::string_view what) {
  const std::size_t colon = what.find(": ");
  if (colon == std::string_view::npos || !what.ends_with(" missing") ||
      what.find(" required ", colon) == std::string_view::npos) {
    return std::nullopt;
  }
  const std::string name(what.substr(0, colon));
  // The flag may be the parent's, given before the subcommand's name.
  const CLI::Option* option = nullptr;
  for (const CLI::App* app = &command; app != nullptr && option == nullptr;
       app = app->get_parent()) {
    option = app->get_option_no_throw(name);
  }
  if (option == nullptr) return std::nullopt;
  return fmt::format("{}: give it a value: {}", name, value_placeholder(*option));
}

}  // namespace

std::optional<std::string> missing_value_message(const CLI::App& command,
                                                 const CLI::ParseError& error) {
  if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr) {
    return missing_positionals(command);
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr) {
    return flag_without_value(command, error.what());
  }
  return std::nullopt;
}

}  // namespace bench::cli
