#include "bench/sim/trace_log.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace bench::sim {

namespace {

void append_array(std::string& line, const std::vector<std::int64_t>& values) {
  line += '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) line += ',';
    fmt::format_to(std::back_inserter(line), "{}", values[i]);
  }
  line += ']';
}

}  // namespace

TraceLog::TraceLog(const std::string& path) {
  if (path.empty()) return;
  file_.reset(std::fopen(path.c_str(), "w"));
  if (!file_) {
    throw std::runtime_error("cannot create trace file '" + path + "': " + std::strerror(errno));
  }
}

TraceLog::~TraceLog() = default;

void TraceLog::write(const TraceRecord& r) {
  if (!file_) return;
  line_.clear();
  auto out = std::back_inserter(line_);
  // Ids and outcomes are the server's own ASCII names: no JSON escaping is needed.
  fmt::format_to(out,
                 R"({{"id":"{}","endpoint":"{}","stream":{},"arrival_ns":{},"jitter_ns":{},)"
                 R"("first_chunk_ns":{},)",
                 r.id,
                 r.responses  ? "responses"
                 : r.messages ? "messages"
                 : r.chat     ? "chat"
                              : "completions",
                 r.stream, r.arrival_ns, r.jitter_ns, r.chunk_ns.empty() ? -1 : r.chunk_ns.front());
  line_ += R"("chunk_ns":)";
  append_array(line_, r.chunk_ns);
  line_ += R"(,"chunk_tokens":)";
  append_array(line_, r.chunk_tokens);
  fmt::format_to(out,
                 R"(,"end_ns":{},"prompt_tokens":{},"prompt_hash":"{:016x}",)"
                 R"("cached_prompt_tokens":{},"completion_tokens":{},"http_status":{},)"
                 R"("outcome":"{}","faults":{},"queue_ns":{},"prefill_start_ns":{},)"
                 R"("prefill_end_ns":{},"chunk_batch":)",
                 r.end_ns, r.prompt_tokens, r.prompt_hash, r.cached_prompt_tokens,
                 r.completion_tokens, r.http_status, r.outcome, r.faults_json,
                 r.prefill_start_ns < 0 ? -1 : r.prefill_start_ns - r.arrival_ns,
                 r.prefill_start_ns, r.prefill_end_ns);
  append_array(line_, r.chunk_batch);
  const bool answered = r.first_answer_chunk >= 0 &&
                        static_cast<std::size_t>(r.first_answer_chunk) < r.chunk_ns.size();
  fmt::format_to(out, R"(,"reasoning_tokens":{},"first_answer_ns":{})", r.reasoning_tokens,
                 answered ? r.chunk_ns[static_cast<std::size_t>(r.first_answer_chunk)] : -1);
  if (r.last_assistant_hash) {
    fmt::format_to(out, R"(,"last_assistant_hash":"{:016x}")", *r.last_assistant_hash);
  } else {
    line_ += R"(,"last_assistant_hash":null)";
  }
  fmt::format_to(out, R"(,"reply_hash":"{:016x}")", r.reply_hash);
  // The tool's name came from the request: escaped as JSON.
  if (r.tool_name.empty()) {
    line_ += R"(,"tool_call":null,"tool_call_tokens":0)";
  } else {
    line_ += R"(,"tool_call":)";
    line_ +=
        nlohmann::json(r.tool_name).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    fmt::format_to(out, R"(,"tool_call_tokens":{})",
                   std::max<std::int64_t>(0, r.completion_tokens - r.reasoning_tokens));
  }
  line_ += '}';
  write_line(line_);
}

void TraceLog::write_line(std::string_view line) {
  if (!file_) return;
  std::fwrite(line.data(), 1, line.size(), file_.get());
  std::fputc('\n', file_.get());
}

}  // namespace bench::sim
