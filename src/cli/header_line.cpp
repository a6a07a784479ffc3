#include "bench/cli/header_line.hpp"

#include <string_view>

#include <fmt/format.h>

#include "bench/cli/values.hpp"

namespace bench::cli {

bool is_header_name(const std::string& name) {
  if (name.empty()) return false;
  for (const char c : name) {
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!alnum && std::string_view("!#$%&'*+-.^_`|~").find(c) == std::string_view::npos) {
      return false;
    }
  }
  return true;
}

std::string header_line(const std::string& given) {
  const auto equals = given.find('=');
  const auto colon = given.find(':');
  if (equals == std::string::npos || (colon != std::string::npos && colon < equals)) return given;
  const std::string name = given.substr(0, equals);
  if (!is_header_name(name)) return given;
  return name + ": " + given.substr(equals + 1);
}

std::string checked_header_line(const std::string& given) {
  std::string header = header_line(given);
  const auto colon = header.find(':');
  if (colon == std::string::npos || colon == 0) {
    throw UsageError(fmt::format("--header: '{}' is not 'Name: value'", header));
  }
  if (header.find_first_of("\r\n") != std::string::npos) {
    throw UsageError("--header: a header may not contain CR or LF characters");
  }
  return header;
}

}  // namespace bench::cli
