#pragma once
// Reading a results file from disk, the one way every reader does it (`bench compare`,
// `bench report`, `bench export`, `bench merge`): its bytes, its JSON, bench's own definitions
// whichever view wrote it (a --json-compat file is turned back, compat.hpp), and its kind.
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "bench/results/format.hpp"
#include "bench/results/shape.hpp"

namespace bench::results {

/// A results file as bench reads it: the object by bench's own definitions, and its kind.
struct ResultsFile {
  nlohmann::json results;
  Kind kind = Kind::run;
};

/// A results object already parsed, read as a file is: a --json-compat view turned back to
/// bench's definitions (native_view), then checked and classified (classify), each refusal a
/// FormatError naming `name`.
std::variant<ResultsFile, FormatError> read_results(const nlohmann::json& parsed,
                                                    std::string_view name);

/// Reads the results file at `path`: opened, parsed and read_results. Each refusal is a FormatError
/// of one line naming the path: "PATH: cannot open: REASON", "PATH: cannot read: REASON", "PATH:
/// not JSON: parse error at line L, column C: ...", or native_view's and classify's own.
std::variant<ResultsFile, FormatError> read_results_file(const std::string& path);

}  // namespace bench::results
