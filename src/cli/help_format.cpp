#include "bench/cli/help_format.hpp"

#include <sstream>
#include <utility>

namespace bench::cli {

namespace {

// Wide enough for most "--flag PLACEHOLDER (default D)" to keep their description on the line.
constexpr std::size_t kNameColumn = 34;

// CLI11 names a type "BASE" or "BASE:CHECK" (INT:INT in [1 - 10], TEXT:{a,b}, TEXT:FILE).
std::string placeholder_of_type(const std::string& type) {
  const std::size_t choices = type.find(":{");
  if (choices != std::string::npos && type.ends_with("}")) {
    std::string words = type.substr(choices + 2, type.size() - choices - 3);
    for (char& c : words) {
      if (c == ',') c = '|';
    }
    return words;
  }
  const std::string base = type.substr(0, type.find(':'));
  if (base == "INT" || base == "UINT") return "N";
  if (base == "FLOAT") return "NUM";
  if (type == "TEXT:FILE") return "FILE";
  if (type == "TEXT:DIR") return "DIR";
  return base.empty() ? "VALUE" : base;  // TEXT, or a word the flag chose (on|off)
}

}  // namespace

std::string value_placeholder(const CLI::Option& option) {
  if (!option.get_option_text().empty()) return option.get_option_text();
  return placeholder_of_type(option.get_type_name());
}

std::string command_path(const CLI::App& command) {
  std::string path = command.get_name();
  for (const CLI::App* parent = command.get_parent(); parent != nullptr;
       parent = parent->get_parent()) {
    path = parent->get_name() + " " + path;
  }
  return path;
}

HelpFormatter::HelpFormatter() { column_width(kNameColumn); }

void HelpFormatter::summarize_group(std::string group, std::string line) {
  summarized_[std::move(group)] = std::move(line);
}

// CLI11's make_help, with the option groups written by make_option_groups (CLI11's
// make_groups, which would list a summarized group's flags, is not virtual).
std::string HelpFormatter::make_help(const CLI::App* app, std::string name,
                                     CLI::AppFormatMode mode) const {
  if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
  return make_description(app) + make_usage(app, std::move(name)) + make_positionals(app) +
         make_option_groups(app, mode) + make_subcommands(app, mode) + "\n" + make_footer(app);
}

// One blank line before each group's heading (CLI11 puts two between groups).
std::string HelpFormatter::make_option_groups(const CLI::App* app, CLI::AppFormatMode mode) const {
  std::string out;
  for (const std::string& group : app->get_groups()) {
    if (group.empty()) continue;  // hidden
    const auto summary = summarized_.find(group);
    if (summary != summarized_.end()) {
      out += "\n" + group + ":\n  " + summary->second + "\n";
      continue;
    }
    const std::vector<const CLI::Option*> options =
        app->get_options([app, mode, &group](const CLI::Option* option) {
          return option->get_group() == group && option->nonpositional() &&
                 (mode != CLI::AppFormatMode::Sub ||
                  (option != app->get_help_ptr() && option != app->get_help_all_ptr()));
        });
    if (!options.empty()) out += make_group(group, false, options);
  }
  return out;
}

// "Usage: bench serve-sim [OPTIONS]": the subcommand as typed, not its bare name.
std::string HelpFormatter::make_usage(const CLI::App* app, std::string name) const {
  if (app->get_parent() != nullptr) name = command_path(*app);
  return CLI::Formatter::make_usage(app, std::move(name));
}

// A positional is its name and description: the usage line says it is required.
std::string HelpFormatter::make_option(const CLI::Option* option, bool is_positional) const {
  std::stringstream out;
  const std::string name = make_option_name(option, is_positional) +
                           (is_positional ? std::string() : make_option_opts(option));
  CLI::detail::format_help(out, name, make_option_desc(option), get_column_width());
  return out.str();
}

// "-q,--quiet": the names alone, never CLI11's "{false}" of a flag that sets false.
std::string HelpFormatter::make_option_name(const CLI::Option* option, bool is_positional) const {
  if (is_positional) return option->get_name(true, false);
  std::string names;
  for (const std::string& name : option->get_snames()) names += (names.empty() ? "-" : ",-") + name;
  for (const std::string& name : option->get_lnames()) {
    names += (names.empty() ? "--" : ",--") + name;
  }
  return names;
}

// " N (default 1000)", " FILE ... (required)"; nothing for a flag, which takes no value.
std::string HelpFormatter::make_option_opts(const CLI::Option* option) const {
  if (option->get_expected_max() == 0) return {};
  std::string opts = " " + value_placeholder(*option);
  if (option->get_expected_max() == CLI::detail::expected_max_vector_size) opts += " ...";
  if (option->get_required()) {
    opts += " (required)";
  } else if (!option->get_default_str().empty()) {
    opts += " (default " + option->get_default_str() + ")";
  }
  return opts;
}

}  // namespace bench::cli
