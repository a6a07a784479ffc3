#pragma once
// A flag whose value is one of a few words, stored as the enum it names.
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace bench::cli {

// A flag whose value is one of a few words, stored as the enum it names: CLI11 checks the word
// (its one-line error names the flag and the words allowed), nothing compares strings later.
template <typename Enum, typename NameOf>
CLI::Option* add_choice(CLI::App& app, const std::string& flag, Enum& target,
                        const std::vector<Enum>& values, NameOf name_of, const std::string& help) {
  std::vector<std::pair<std::string, Enum>> choices;
  std::vector<std::string> words;
  for (Enum value : values) {
    choices.emplace_back(std::string(name_of(value)), value);
    words.emplace_back(name_of(value));
  }
  const std::string default_word(name_of(target));
  return app
      .add_option_function<std::string>(
          flag,
          [&target, choices](const std::string& word) {
            for (const auto& [name, value] : choices) {
              if (name == word) target = value;
            }
          },
          help)
      ->check(CLI::IsMember(words))
      ->default_str(default_word);
}

template <typename Enum, typename NameOf>
CLI::Option* add_choice(CLI::App& app, const std::string& flag, Enum& target,
                        std::initializer_list<Enum> values, NameOf name_of,
                        const std::string& help) {
  return add_choice(app, flag, target, std::vector<Enum>(values), name_of, help);
}

}  // namespace bench::cli
