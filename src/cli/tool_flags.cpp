#include "bench/cli/tool_flags.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/cli/values.hpp"
#include "bench/metrics/figures.hpp"
#include "bench/protocol/endpoint.hpp"

namespace bench::cli {
namespace {

using nlohmann::json;

constexpr const char* kToolGroup = "Tool calls and structured output (chat, responses)";

std::string read_whole_file(const std::string& flag, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(fmt::format("{}: '{}': cannot be read", flag, path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// OpenAI's rule for a function name (chat API reference, tools[].function.name): a-z, A-Z,
// 0-9, underscores and dashes, at most 64 characters.
bool is_function_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (const char c : name) {
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!alnum && c != '_' && c != '-') return false;
  }
  return true;
}

// [{"type": "function", "function": {"name", "description"?, "parameters"?}}, ...]; returns the
// names, refusing a file that is not that shape with the first thing wrong in it.
std::set<std::string> check_tools(const std::string& path, const json& tools) {
  const auto refuse = [&path](const std::string& why) {
    return UsageError(fmt::format("--tools: '{}': {}", path, why));
  };
  if (!tools.is_array() || tools.empty()) {
    throw refuse("expected a non-empty JSON array of tool definitions");
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < tools.size(); ++i) {
    const json& tool = tools[i];
    if (!tool.is_object() || tool.value("type", json()) != "function") {
      throw refuse(
          fmt::format("tool {}: expected {{\"type\": \"function\", \"function\": {{...}}}}", i));
    }
    const auto function = tool.find("function");
    if (function == tool.end() || !function->is_object() || !function->contains("name") ||
        !(*function)["name"].is_string()) {
      throw refuse(fmt::format("tool {}: \"function\" must be an object with a \"name\"", i));
    }
    const std::string name = (*function)["name"].get<std::string>();
    if (!is_function_name(name)) {
      throw refuse(
          fmt::format("tool {}: name '{}' is not 1-64 of a-z, A-Z, 0-9, _ and -", i, name));
    }
    if (function->contains("parameters") && !(*function)["parameters"].is_object()) {
      throw refuse(
          fmt::format("tool {} ('{}'): \"parameters\" must be a JSON Schema object", i, name));
    }
    if (!names.insert(name).second) throw refuse(fmt::format("tool name '{}' repeats", name));
  }
  return names;
}

// {"type": "text" | "json_object" | "json_schema", "json_schema": {"name", "schema", ...}}
// (OpenAI's chat API reference; vLLM and SGLang take the same for guided decoding).
json read_response_format(const std::string& value) {
  const bool inline_json = value.find_first_not_of(" \t\r\n") != std::string::npos &&
                           value[value.find_first_not_of(" \t\r\n")] == '{';
  const std::string text = inline_json ? value : read_whole_file("--response-format", value);
  const std::string what = inline_json ? "the value" : "'" + value + "'";
  const json format = json::parse(text, nullptr, false);
  if (format.is_discarded() || !format.is_object()) {
    throw UsageError(fmt::format("--response-format: {} is not a JSON object", what));
  }
  const json type = format.value("type", json());
  if (type != "text" && type != "json_object" && type != "json_schema") {
    throw UsageError(
        fmt::format("--response-format: {}: \"type\" must be \"text\", "
                    "\"json_object\" or \"json_schema\"",
                    what));
  }
  if (type == "json_schema") {
    const auto schema = format.find("json_schema");
    if (schema == format.end() || !schema->is_object() || !schema->contains("name") ||
        !(*schema)["name"].is_string() ||
        (schema->contains("schema") && !(*schema)["schema"].is_object())) {
      throw UsageError(
          fmt::format("--response-format: {}: \"json_schema\" must be an object "
                      "with a \"name\" (and a \"schema\" object)",
                      what));
    }
  }
  return format;
}

}  // namespace

void add_tool_flags(CLI::App& app, RawToolFlags& raw) {
  app.add_option("--tools", raw.tools_path,
                 "A JSON file of OpenAI tool definitions ([{\"type\": \"function\", "
                 "\"function\": {\"name\", \"parameters\"}}]) sent as \"tools\" in every "
                 "request (chat, responses)")
      ->option_text("FILE")
      ->group(kToolGroup);
  app.add_option("--tool-choice", raw.tool_choice,
                 "Sent as \"tool_choice\": auto, required, none, or the name of a tool in "
                 "--tools (forces that function) (default: not sent)")
      ->group(kToolGroup);
  app.add_option("--response-format", raw.response_format,
                 "An OpenAI response_format object, as JSON or a file holding it (e.g. "
                 "{\"type\": \"json_schema\", \"json_schema\": {\"name\", \"schema\"}}): guided "
                 "decoding, part of the workload (chat, responses)")
      ->group(kToolGroup);
}

void finish_tool_flags(RunOptions& run, const RawToolFlags& raw) {
  const bool any =
      !raw.tools_path.empty() || !raw.tool_choice.empty() || !raw.response_format.empty();
  if (any && !protocol::produces(run.endpoint, metrics::Figure::tool_calls)) {
    const char* flag = !raw.tools_path.empty()    ? "--tools"
                       : !raw.tool_choice.empty() ? "--tool-choice"
                                                  : "--response-format";
    throw UsageError(fmt::format("{}: applies to --endpoint {}, not {}", flag,
                                 protocol::endpoints_producing(metrics::Figure::tool_calls),
                                 protocol::endpoint_name(run.endpoint)));
  }
  std::set<std::string> names;
  if (!raw.tools_path.empty()) {
    const json tools = json::parse(read_whole_file("--tools", raw.tools_path), nullptr, false);
    if (tools.is_discarded()) {
      throw UsageError(fmt::format("--tools: '{}': not valid JSON", raw.tools_path));
    }
    names = check_tools(raw.tools_path, tools);
    run.tools = tools.dump();
  }
  if (!raw.tool_choice.empty()) {
    const std::string& choice = raw.tool_choice;
    const bool keyword = choice == "auto" || choice == "required" || choice == "none";
    if (names.empty()) {
      throw UsageError(fmt::format("--tool-choice: '{}' needs --tools", choice));
    }
    if (!keyword && names.count(choice) == 0) {
      throw UsageError(
          fmt::format("--tool-choice: '{}' is not auto, required, none or a tool "
                      "in {}",
                      choice, raw.tools_path));
    }
    run.tool_choice = choice;
  }
  if (!raw.response_format.empty()) {
    run.response_format = read_response_format(raw.response_format).dump();
  }
}

}  // namespace bench::cli
