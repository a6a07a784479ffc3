#pragma once
// A multi-turn run's turns joined with what the simulator served: bench's --save-requests line
// of each (session, turn) and the --sim-trace line of its response (matched by response id).
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "jsonl.hpp"

namespace bench::testing {

struct TurnLines {
  nlohmann::json sent;    // bench's request line
  nlohmann::json served;  // the truth log's line of its response
};

/// Every turn's lines, in the request log's order. A response id missing from the truth log
/// throws (failing the test).
inline std::vector<TurnLines> joined_turns(const std::string& requests_path,
                                           const std::string& trace_path) {
  std::map<std::string, nlohmann::json> by_id;
  for (nlohmann::json& line : read_jsonl(trace_path)) {
    std::string id = line["id"].get<std::string>();
    by_id[id] = std::move(line);
  }
  std::vector<TurnLines> turns;
  for (nlohmann::json& request : read_jsonl(requests_path)) {
    nlohmann::json served = by_id.at(request.value("response_id", ""));
    turns.push_back(TurnLines{std::move(request), std::move(served)});
  }
  return turns;
}

/// By (session, turn).
inline std::map<std::pair<int, int>, TurnLines> session_turns(const std::string& requests_path,
                                                              const std::string& trace_path) {
  std::map<std::pair<int, int>, TurnLines> turns;
  for (TurnLines& lines : joined_turns(requests_path, trace_path)) {
    const std::pair<int, int> key{lines.sent["session"].get<int>(), lines.sent["turn"].get<int>()};
    turns[key] = std::move(lines);
  }
  return turns;
}

}  // namespace bench::testing
