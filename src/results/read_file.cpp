// Reading a results file: bytes, JSON, bench's definitions, kind; each refusal names the file.
#include "bench/results/read_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "bench/results/compat.hpp"

namespace bench::results {
namespace {

std::variant<nlohmann::json, FormatError> parse_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return FormatError{fmt::format("{}: cannot open: {}", path, std::strerror(errno))};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return FormatError{fmt::format("{}: cannot read: {}", path, std::strerror(errno))};
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& error) {
    // nlohmann's message leads with "[json.exception.parse_error.101] parse error at line L,
    // column C: ..."; the part after the bracket is the useful one.
    std::string_view what = error.what();
    const std::size_t bracket = what.find("] ");
    if (bracket != std::string_view::npos) what.remove_prefix(bracket + 2);
    return FormatError{fmt::format("{}: not JSON: {}", path, what)};
  }
}

}  // namespace

std::variant<ResultsFile, FormatError> read_results(const nlohmann::json& parsed,
                                                    std::string_view name) {
  // Read by bench's own definitions, however it was written (a --json-compat view's ITL is per
  // chunk).
  auto native = native_view(parsed, name);
  if (auto* error = std::get_if<FormatError>(&native)) return std::move(*error);
  ResultsFile file{std::move(std::get<nlohmann::json>(native))};
  const auto kind = classify(file.results, name);
  if (const auto* error = std::get_if<FormatError>(&kind)) return *error;
  file.kind = std::get<Kind>(kind);
  return file;
}

std::variant<ResultsFile, FormatError> read_results_file(const std::string& path) {
  auto parsed = parse_file(path);
  if (auto* error = std::get_if<FormatError>(&parsed)) return std::move(*error);
  return read_results(std::get<nlohmann::json>(parsed), path);
}

}  // namespace bench::results
