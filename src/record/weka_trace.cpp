#include "bench/record/weka_trace.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/record/completion_exchange.hpp"
#include "bench/util/atomic_file.hpp"

namespace bench::record {

namespace {

using ordered_json = nlohmann::ordered_json;

// Anthropic's stop reasons, which the public traces record, for OpenAI's finish_reason.
std::string stop_of(const std::string& finish_reason) {
  if (finish_reason == "tool_calls" || finish_reason == "function_call") return "tool_use";
  if (finish_reason == "stop") return "end_turn";
  if (finish_reason == "length") return "max_tokens";
  return finish_reason;
}

// In the order the public traces list them.
std::vector<std::string> output_types(const Completion& completion) {
  std::vector<std::string> types;
  if (completion.replied_text) types.emplace_back("text");
  if (completion.replied_reasoning) types.emplace_back("thinking");
  if (completion.replied_tool_call) types.emplace_back("tool_use");
  return types;
}

// Seconds to the microsecond: nanoseconds of the proxy's clock say no more.
double seconds(std::int64_t ns) { return std::round(static_cast<double>(ns) / 1e3) / 1e6; }

}  // namespace

WekaTraceRecorder::WekaTraceRecorder(WekaTraceOptions options)
    : options_(std::move(options)),
      hasher_(options_.salt, options_.block_size, options_.tokenizer.get()),
      finder_(options_.salt) {}

void WekaTraceRecorder::left_out(std::string why) {
  if (tally_.left_out++ == 0) tally_.first_left_out = std::move(why);
}

void WekaTraceRecorder::add(const wire::Exchange& exchange, std::int64_t sent_ns,
                            std::string_view session_header) {
  auto read = read_completion(exchange);
  if (auto* why = std::get_if<std::string>(&read)) return left_out(std::move(*why));
  const Completion& completion = std::get<Completion>(read);
  PromptBlocks blocks;
  Request request;
  try {
    blocks = hasher_.blocks(completion.messages);
    request.out = completion.completion_tokens ? *completion.completion_tokens
                                               : hasher_.count(completion.reply_text);
  } catch (const tokenizer::TokenizerError& error) {
    return left_out(fmt::format("the tokenizer cannot read it: {}", error.what()));
  }
  request.in = completion.prompt_tokens.value_or(blocks.units);
  if (request.in <= 0) return left_out("an empty prompt");
  request.in_counted = !completion.prompt_tokens;
  request.out_counted = !completion.completion_tokens;
  // The trace's rule: floor(in / block_size) ids, whoever counted "in" (weka_trace.hpp).
  const auto server_blocks = static_cast<std::size_t>(request.in / options_.block_size);
  if (blocks.hashes.size() != server_blocks) ++tally_.reconciled;
  if (blocks.hashes.size() > server_blocks) blocks.hashes.resize(server_blocks);
  request.own_blocks = static_cast<std::int64_t>(server_blocks - blocks.hashes.size());
  request.blocks = std::move(blocks.hashes);
  request.system_units = blocks.system_units;
  request.sent_ns = sent_ns;
  request.end_ns = sent_ns + (exchange.reads.empty() ? 0 : exchange.reads.back().at_ns);
  request.streamed = completion.streamed;
  request.model = completion.model;
  request.answers_tool = completion.answers_tool;
  request.stop = stop_of(completion.finish_reason);
  request.output_types = output_types(completion);
  ++tally_.requests;
  if (request.in_counted || request.out_counted) ++tally_.counted;
  const std::size_t session = finder_.session_of(completion.messages, session_header);
  if (session >= sessions_.size()) sessions_.resize(session + 1);
  sessions_[session].push_back(std::move(request));
}

WekaTraceTally WekaTraceRecorder::write() const {
  std::vector<std::vector<Request>> sessions = sessions_;
  for (auto& requests : sessions) {
    std::stable_sort(requests.begin(), requests.end(),
                     [](const Request& a, const Request& b) { return a.sent_ns < b.sent_ns; });
  }
  std::stable_sort(sessions.begin(), sessions.end(), [](const auto& a, const auto& b) {
    return a.front().sent_ns < b.front().sent_ns;
  });
  for (std::size_t k = 0; k < sessions.size(); ++k) {
    write_session(sessions[k], fmt::format("session_{:06d}", k + 1));
  }
  WekaTraceTally tally = tally_;
  tally.unit = hasher_.unit();
  tally.sessions = sessions.size();
  return tally;
}

void WekaTraceRecorder::write_session(const std::vector<Request>& requests,
                                      const std::string& id) const {
  std::unordered_map<std::uint64_t, std::int64_t> ids;  // a block's hash -> its local id
  std::int64_t next_id = 1;
  ordered_json models = ordered_json::array();
  ordered_json entries = ordered_json::array();
  for (std::size_t k = 0; k < requests.size(); ++k) {
    const Request& request = requests[k];
    if (std::find(models.begin(), models.end(), request.model) == models.end()) {
      models.push_back(request.model);
    }
    ordered_json hash_ids = ordered_json::array();
    for (const std::uint64_t hash : request.blocks) {
      const auto [known, added] = ids.try_emplace(hash, next_id);
      if (added) ++next_id;
      hash_ids.push_back(known->second);
    }
    for (std::int64_t own = 0; own < request.own_blocks; ++own) hash_ids.push_back(next_id++);
    const std::int64_t think_ns =
        k == 0 ? 0 : std::max<std::int64_t>(0, request.sent_ns - requests[k - 1].end_ns);
    ordered_json entry = {
        {"t", seconds(request.sent_ns - requests.front().sent_ns)},
        {"type", request.streamed ? "s" : "n"},
        {"model", request.model},
        {"in", request.in},
        {"out", request.out},
        {"hash_ids", std::move(hash_ids)},
        {"input_types", ordered_json::array({request.answers_tool ? "tool_result" : "text"})},
        {"output_types", request.output_types},
    };
    if (!request.stop.empty()) entry["stop"] = request.stop;
    entry["think_time"] = seconds(think_ns);
    entry["api_time"] = seconds(request.end_ns - request.sent_ns);
    ordered_json counted = ordered_json::array();
    if (request.in_counted) counted.push_back("in");
    if (request.out_counted) counted.push_back("out");
    if (!counted.empty()) entry["counted"] = std::move(counted);
    entries.push_back(std::move(entry));
  }
  const ordered_json trace = {
      {"id", id},
      {"models", std::move(models)},
      {"block_size", options_.block_size},
      {"hash_id_scope", "local"},
      {"block_unit", hasher_.unit()},
      {"tool_tokens", 0},
      {"system_tokens", requests.front().system_units},
      {"requests", std::move(entries)},
  };
  AtomicFileWriter file((std::filesystem::path(options_.dir) / (id + ".json")).string());
  file.write(trace.dump(1));
  file.write("\n");
  file.commit();
}

}  // namespace bench::record
