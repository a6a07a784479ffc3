// The per-request log read back (request_log.hpp): each line one JSON object as
// request_line.cpp writes it. Absent keys are left unknown (a log of an older bench lacks the
// choice chunks); a key of the wrong type refuses the line, naming it.
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/results/request_log.hpp"

namespace bench::results {

namespace {

using nlohmann::json;

std::optional<double> number_or_none(const json& line, const char* key) {
  const auto found = line.find(key);
  if (found == line.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

std::optional<std::int64_t> count_or_none(const json& line, const char* key) {
  const auto found = line.find(key);
  if (found == line.end() || !found->is_number_integer()) return std::nullopt;
  return found->get<std::int64_t>();
}

LoggedRequest from_json(const json& line) {
  LoggedRequest r;
  r.warmup = line.value("warmup", false);
  r.streamed = line.value("streamed", true);
  r.ok = line.value("status", std::string()) == "ok";
  r.start_ms = line.at("start_ms").get<double>();
  r.e2e_ms = line.at("e2e_ms").get<double>();
  r.ttft_ms = number_or_none(line, "ttft_ms");
  if (const auto chunks = line.find("chunk_arrival_ms"); chunks != line.end()) {
    r.chunk_arrival_ms = chunks->get<std::vector<double>>();
  }
  r.first_choice_ms = number_or_none(line, "first_choice_ms");
  r.last_choice_ms = number_or_none(line, "last_choice_ms");
  r.choice_chunks = count_or_none(line, "choice_chunks");
  r.prompt_tokens = count_or_none(line, "prompt_tokens");
  r.completion_tokens = count_or_none(line, "completion_tokens");
  r.completion_token_source = line.value("completion_token_source", std::string("none"));
  if (const auto id = line.find("response_id"); id != line.end() && id->is_string()) {
    r.response_id = id->get<std::string>();
  }
  r.client_prompt_tokens = count_or_none(line, "client_prompt_tokens");
  r.requested_output_len = count_or_none(line, "requested_output_len");
  r.tool_call_chunks = count_or_none(line, "tool_call_chunks").value_or(0);
  r.in_sweep = line.contains("point");
  return r;
}

}  // namespace

std::variant<LoggedRequest, FormatError> parse_request_line(const std::string& text) {
  const json line = json::parse(text, nullptr, false);
  if (!line.is_object() || !line.contains("start_ms") || !line.contains("e2e_ms")) {
    return FormatError{"not a request line of bench's --save-requests log"};
  }
  try {
    return from_json(line);
  } catch (const json::exception& error) {
    return FormatError{std::string("a request line with a key of the wrong type: ") + error.what()};
  }
}

std::variant<std::vector<LoggedRequest>, FormatError> read_request_log(const std::string& path) {
  std::ifstream in(path);
  if (!in) return FormatError{path + ": cannot be read"};
  std::vector<LoggedRequest> requests;
  std::string text;
  for (std::size_t number = 1; std::getline(in, text); ++number) {
    if (text.empty()) continue;
    auto line = parse_request_line(text);
    if (const auto* error = std::get_if<FormatError>(&line)) {
      return FormatError{path + ":" + std::to_string(number) + ": " + error->message};
    }
    requests.push_back(std::move(std::get<LoggedRequest>(line)));
  }
  return requests;
}

}  // namespace bench::results
