#pragma once
// One check of `bench conformance`: a row of the battery (checks.cpp) and its verdict. Private
// to src/app/conform.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/engine/engine.hpp"
#include "bench/util/redact.hpp"

namespace bench::app::conform {

/// The server as every check reaches it: through the recording proxy.
struct ConformServer {
  std::string base_url;   // the proxy's root, "http://127.0.0.1:PORT"
  std::string shown_url;  // the server's root as the user gave it, for what a check says
  const std::vector<std::string>* headers = nullptr;  // the API key's included
  engine::EngineOptions engine;
  std::string model;
  std::optional<std::int64_t> max_model_len;  // as the server said; nullopt when it did not
  const util::Redactor* redactor = nullptr;   // hides credentials in what servers echo
};

enum class Holds {
  holds,      // what bench relies on is so
  fails,      // it is not: bench misreads this server here
  not_shown,  // the server has nothing to show (no reasoning model, no /tokenize)
};
std::string_view holds_name(Holds holds);  // "holds", "does not hold", "not shown"

struct Verdict {
  Holds holds = Holds::not_shown;
  std::string detail;  // one line: what was seen
};

struct Check {
  std::string_view name;       // "streamed chat"
  std::string_view relies_on;  // what bench relies on, one line
  Verdict (*run)(const ConformServer& server);
};

/// The battery, in the order it runs: one row per check (checks.cpp).
const std::vector<Check>& checks();

struct CheckResult {
  const Check* check = nullptr;
  Verdict verdict;
};

}  // namespace bench::app::conform
