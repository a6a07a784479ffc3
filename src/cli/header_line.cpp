#include "bench/cli/header_line.hpp"

#include <string_view>

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

}  // namespace bench::cli
