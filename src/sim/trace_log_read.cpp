#include "bench/sim/trace_log_read.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

namespace bench::sim {

namespace {

using nlohmann::json;

// The replay's lines (replay_server.hpp) have another shape: no arrival_ns, so not read.
bool is_request_line(const json& line) {
  return line.is_object() && line.contains("arrival_ns") && line.contains("chunk_ns") &&
         line.contains("end_ns");
}

TraceRecord from_json(const json& line) {
  TraceRecord r;
  r.id = line.value("id", std::string());
  const std::string endpoint = line.value("endpoint", std::string());
  r.chat = endpoint == "chat" || endpoint == "responses" || endpoint == "messages";
  r.responses = endpoint == "responses";
  r.messages = endpoint == "messages";
  r.stream = line.value("stream", false);
  r.arrival_ns = line.at("arrival_ns").get<std::int64_t>();
  r.chunk_ns = line.at("chunk_ns").get<std::vector<std::int64_t>>();
  r.chunk_tokens = line.value("chunk_tokens", std::vector<std::int64_t>{});
  r.end_ns = line.at("end_ns").get<std::int64_t>();
  r.prompt_tokens = line.value("prompt_tokens", std::int64_t{0});
  r.completion_tokens = line.value("completion_tokens", std::int64_t{0});
  r.http_status = line.value("http_status", 200);
  r.outcome = line.value("outcome", std::string("ok"));
  return r;
}

}  // namespace

std::variant<std::vector<TraceRecord>, std::string> read_trace_log(const std::string& path) {
  std::ifstream in(path);
  if (!in) return path + ": cannot be read";
  std::vector<TraceRecord> records;
  std::string text;
  for (std::size_t number = 1; std::getline(in, text); ++number) {
    if (text.empty()) continue;
    const json line = json::parse(text, nullptr, false);
    if (!is_request_line(line)) {
      return path + ":" + std::to_string(number) + ": not a request line of a truth log";
    }
    try {
      records.push_back(from_json(line));
    } catch (const json::exception& error) {
      return path + ":" + std::to_string(number) + ": " + error.what();
    }
  }
  return records;
}

}  // namespace bench::sim
