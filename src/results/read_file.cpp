// Reading a results file: bytes, JSON, bench's definitions, kind; each refusal names the file.
#include "bench/results/read_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "bench/results/compat.hpp"
#include "bench/results/peer_file_read.hpp"

namespace bench::results {
namespace {

// Several JSON objects one a line: what SGLang's --output-file and vLLM's --append-result make
// of runs appended to one file. Their count, or 0 when the text is not that.
std::size_t appended_runs(const std::string& text) {
  std::istringstream lines(text);
  std::size_t runs = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (!nlohmann::json::parse(line, nullptr, false).is_object()) return 0;
    ++runs;
  }
  return runs > 1 ? runs : 0;
}

// Python's json module writes an infinite or undefined number as a bare Infinity, -Infinity or
// NaN, which is not JSON: SGLang's --output-file line does for an unlimited --request-rate. The
// text with each such value (after a ':', ',' or '[' and before a ',', '}' or ']') as the string
// "inf"/"-inf" or null, as bench writes them; nullopt when the text has none.
std::optional<std::string> without_python_constants(const std::string& text) {
  static const std::regex constant(R"(([:,\[]\s*)(-?Infinity|NaN)(?=\s*[,}\]]))");
  if (!std::regex_search(text, constant)) return std::nullopt;
  std::string out;
  auto last = text.cbegin();
  for (std::sregex_iterator it(text.begin(), text.end(), constant), end; it != end; ++it) {
    const std::smatch& found = *it;
    out.append(last, found[0].first);
    const std::string value = found[2].str();
    out += found[1].str() + (value == "NaN"        ? "null"
                             : value == "Infinity" ? "\"inf\""
                                                   : "\"-inf\"");
    last = found[0].second;
  }
  out.append(last, text.cend());
  return out;
}

std::variant<nlohmann::json, FormatError> parse_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return FormatError{fmt::format("{}: cannot open: {}", path, std::strerror(errno))};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return FormatError{fmt::format("{}: cannot read: {}", path, std::strerror(errno))};
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& error) {
    const std::optional<std::string> repaired = without_python_constants(text.str());
    if (repaired) {
      nlohmann::json parsed = nlohmann::json::parse(*repaired, nullptr, false);
      if (peer_file_tool(parsed)) return parsed;  // only a peer's file is read so
    }
    if (const std::size_t runs = appended_runs(repaired.value_or(text.str()))) {
      return FormatError{fmt::format(
          "{}: {} runs, one JSON object a line (SGLang's --output-file and vLLM's "
          "--append-result append one a run); bench reads one: e.g. tail -n 1 {} > last.json",
          path, runs, path)};
    }
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
  // chunk; vLLM's and SGLang's own files by the catalogue's peer names).
  const std::optional<nlohmann::json> peer = peer_file_as_results(parsed);
  auto native = native_view(peer ? *peer : parsed, name);
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
