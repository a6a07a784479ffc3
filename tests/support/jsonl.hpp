#pragma once
// Test support: reads a JSON Lines file (bench's --save-requests, serve-sim's --trace), the one
// way every integration test does.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench::testing {

/// One parsed value per line of the file; empty when it does not exist. A line that is not
/// JSON throws nlohmann::json::parse_error, failing the test.
std::vector<nlohmann::json> read_jsonl(const std::string& path);

}  // namespace bench::testing
