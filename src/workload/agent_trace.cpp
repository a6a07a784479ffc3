#include "bench/workload/agent_trace.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/workload/dataset_error.hpp"

namespace bench::workload {
namespace {

using nlohmann::json;

// A field's problem, said with where it is: "requests[3].in: ...".
class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw DatasetError(path_, 0, where.empty() ? what : where + ": " + what);
  }

  std::int64_t count(const json& object, const char* key, const std::string& where,
                     bool required = true) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
      if (required) fail(where, fmt::format("no \"{}\"", key));
      return 0;
    }
    if (!it->is_number_integer() || it->get<std::int64_t>() < 0) {
      fail(where, fmt::format("\"{}\" is not a count (an integer >= 0)", key));
    }
    return it->get<std::int64_t>();
  }

  double seconds(const json& object, const char* key, const std::string& where) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return 0;
    if (!it->is_number() || it->get<double>() < 0) {
      fail(where, fmt::format("\"{}\" is not seconds (a number >= 0)", key));
    }
    return it->get<double>();
  }

  AgentRequest request(const json& entry, std::int64_t block_size, const std::string& where) const {
    AgentRequest request;
    request.streamed = entry.at("type") == "s";
    request.input_len = count(entry, "in", where);
    request.output_len = count(entry, "out", where);
    if (request.input_len == 0) fail(where, "\"in\" is 0: nothing to send");
    request.output_len = std::max<std::int64_t>(1, request.output_len);
    request.t_s = seconds(entry, "t", where);
    request.think_time_s = seconds(entry, "think_time", where);
    request.api_time_s = seconds(entry, "api_time", where);
    const auto ids = entry.find("hash_ids");
    if (ids == entry.end() || !ids->is_array()) fail(where, "no \"hash_ids\" list");
    for (const json& id : *ids) {
      if (!id.is_number_integer()) fail(where, "a hash id is not an integer");
      request.hash_ids.push_back(id.get<std::int64_t>());
    }
    const auto blocks = static_cast<std::size_t>(request.input_len / block_size);
    if (request.hash_ids.size() != blocks) {
      fail(where, fmt::format("{} hash ids for \"in\": {}, where blocks of {} make {}",
                              request.hash_ids.size(), request.input_len, block_size, blocks));
    }
    const auto types = entry.find("input_types");
    request.answers_tool = types != entry.end() && types->is_array() &&
                           std::find(types->begin(), types->end(), "tool_result") != types->end();
    return request;
  }

  std::string type_of(const json& entry, const std::string& where) const {
    const auto it = entry.find("type");
    if (!entry.is_object() || it == entry.end() || !it->is_string()) {
      fail(where, "not a request: no \"type\"");
    }
    const std::string type = *it;
    if (type != "s" && type != "n" && type != "subagent") {
      fail(where, fmt::format("\"type\" is \"{}\", not \"s\", \"n\" or \"subagent\"", type));
    }
    return type;
  }

  std::int64_t head_of(const json& object, const std::string& where) const {
    return count(object, "tool_tokens", where, false) +
           count(object, "system_tokens", where, false);
  }

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A subagent's own requests: one level deep, so a marker inside is refused.
AgentScript child_script(const Reader& reader, const json& marker, std::int64_t block_size,
                         const std::string& where) {
  AgentScript script;
  script.agent_id = marker.value("agent_id", where);
  script.head_tokens = reader.head_of(marker, where);
  const auto requests = marker.find("requests");
  if (requests == marker.end() || !requests->is_array()) reader.fail(where, "no \"requests\" list");
  for (std::size_t i = 0; i < requests->size(); ++i) {
    const std::string inner = fmt::format("{}.requests[{}]", where, i);
    if (reader.type_of((*requests)[i], inner) == "subagent") {
      reader.fail(inner, "a subagent inside a subagent (the format is one level deep)");
    }
    script.requests.push_back(reader.request((*requests)[i], block_size, inner));
  }
  return script;
}

AgentTrace read_one(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DatasetError(path, 0, "cannot be read");
  const Reader reader(path);
  json document;
  try {
    document = json::parse(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const json::parse_error& error) {
    reader.fail("", fmt::format("not JSON ({})", error.what()));
  }
  if (!document.is_object()) reader.fail("", "not a Weka trace: not a JSON object");
  AgentTrace trace;
  trace.path = path;
  trace.id = document.value("id", std::filesystem::path(path).stem().string());
  trace.block_size =
      document.contains("block_size") ? reader.count(document, "block_size", "") : trace.block_size;
  if (trace.block_size == 0) reader.fail("", "\"block_size\" is 0");
  trace.root.agent_id = "root";
  trace.root.head_tokens = reader.head_of(document, "");
  const auto requests = document.find("requests");
  if (requests == document.end() || !requests->is_array()) {
    reader.fail("", "not a Weka trace: no \"requests\" list");
  }
  std::vector<std::size_t> unjoined;  // children waiting for the next root request
  double children_ended_s = 0;        // when the last of them ended (recorded)
  for (std::size_t i = 0; i < requests->size(); ++i) {
    const std::string where = fmt::format("requests[{}]", i);
    const json& entry = (*requests)[i];
    if (reader.type_of(entry, where) != "subagent") {
      trace.root.requests.push_back(reader.request(entry, trace.block_size, where));
      AgentRequest& join = trace.root.requests.back();
      for (const std::size_t child : unjoined) {
        trace.children[child].join = trace.root.requests.size() - 1;
      }
      if (!unjoined.empty()) join.after_children_s = std::max(0.0, join.t_s - children_ended_s);
      unjoined.clear();
      children_ended_s = 0;
      continue;
    }
    SubAgent child;
    child.script = child_script(reader, entry, trace.block_size, where);
    if (trace.root.requests.empty() || child.script.requests.empty()) {
      ++trace.children_dropped;  // spawned from nothing, or sends nothing
      continue;
    }
    child.parent = trace.root.requests.size() - 1;
    const AgentRequest& parent = trace.root.requests.back();
    // The marker's t is when the subagent ended: t - duration_ms is its spawn (0.5-1 s after
    // its parent's reply, in every marker of the public traces).
    const double ended_s = reader.seconds(entry, "t", where);
    child.spawn_gap_s = std::max(0.0, ended_s - reader.seconds(entry, "duration_ms", where) / 1000 -
                                          parent.t_s - parent.api_time_s);
    children_ended_s = std::max(children_ended_s, ended_s);
    unjoined.push_back(trace.children.size());
    trace.children.push_back(std::move(child));
  }
  if (trace.root.requests.empty()) reader.fail("", "no request to send");
  return trace;
}

}  // namespace

std::size_t AgentTrace::requests() const {
  std::size_t total = root.requests.size();
  for (const SubAgent& child : children) total += child.script.requests.size();
  return total;
}

std::size_t AgentTrace::largest_group() const {
  std::size_t largest = 0;
  for (std::size_t parent = 0; parent < root.requests.size(); ++parent) {
    const auto group = static_cast<std::size_t>(
        std::count_if(children.begin(), children.end(),
                      [parent](const SubAgent& child) { return child.parent == parent; }));
    largest = std::max(largest, group);
  }
  return largest;
}

std::vector<AgentTrace> read_agent_traces(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_directory(path, error)) return {read_one(path)};
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") {
      files.push_back(entry.path().string());
    }
  }
  if (error) throw DatasetError(path, 0, "cannot be listed: " + error.message());
  if (files.empty()) throw DatasetError(path, 0, "a directory with no *.json trace in it");
  std::sort(files.begin(), files.end());
  std::vector<AgentTrace> traces;
  traces.reserve(files.size());
  for (const std::string& file : files) traces.push_back(read_one(file));
  return traces;
}

}  // namespace bench::workload
