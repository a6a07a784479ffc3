#pragma once
// The simulator's truth log (`serve-sim --trace FILE`): one JSON line per request with the
// server-side times of its arrival, of every chunk handed to the socket, and of its end, plus
// its token counts. Times are steady-clock (CLOCK_MONOTONIC) nanoseconds, the clock bench uses
// too, so on one machine the two can be compared directly; the `id` is the response id bench
// records from the stream. With a batching profile it also says what the scheduler did: when the
// prompt's computation started (so the queue wait) and ended, and the batch size of the step
// that produced each chunk. docs/simulator.md lists every field.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bench::sim {

struct TraceRecord {
  std::string id;  // response id ("cmpl-17")
  bool chat = false;
  bool responses = false;  // POST /v1/responses (chat's answer in Responses events)
  bool messages = false;   // POST /v1/messages (chat's answer in Anthropic's Messages events)
  bool stream = false;
  std::int64_t arrival_ns = 0;             // the loop woke with the whole request in the kernel
  std::int64_t jitter_ns = 0;              // --jitter-ms: the wait before the model saw it
  std::vector<std::int64_t> chunk_ns;      // each text chunk handed to the socket
  std::vector<std::int64_t> chunk_tokens;  // tokens in each text chunk
  std::int64_t end_ns = 0;                 // the last byte of the response handed to the socket
  std::int64_t prompt_tokens = 0;
  std::uint64_t prompt_hash = 0;  // CompletionRequest::prompt_hash, written as 16 hex digits
  // CompletionRequest::last_assistant_hash (null without one), and the FNV-1a 64 of the answer
  // text this response streamed (0 before any): a turn's reply as the next turn must carry it.
  std::optional<std::uint64_t> last_assistant_hash;
  std::uint64_t reply_hash = 0;
  std::int64_t cached_prompt_tokens = 0;  // of them, served by the prefix cache (0 when it is off)
  std::int64_t completion_tokens = 0;     // tokens sent
  int http_status = 200;
  std::string outcome = "ok";  // "ok", "client_closed", or the injected fault's name
  // Batching profiles only (-1 and [] otherwise): model times, before any socket write.
  std::int64_t prefill_start_ns = -1;     // the first step computing its prompt began
  std::int64_t prefill_end_ns = -1;       // the step that finished its prompt ended
  std::vector<std::int64_t> chunk_batch;  // per text chunk: sequences in the step of its last token
  std::string faults_json = "[]";         // the injected fault kinds (FaultPlan::names_json)
  // Reasoning mode (--reasoning-tokens): the tokens of completion_tokens streamed as reasoning,
  // and which text chunk first carried answer text (-1: none), written as its time.
  std::int64_t reasoning_tokens = 0;
  std::int64_t first_answer_chunk = -1;
  // Tool calls (--tool-call-fraction): the function the answer called, empty when it answered
  // with text; its tokens are completion_tokens less reasoning_tokens.
  std::string tool_name;
};

class TraceLog {
 public:
  /// An empty path makes a log that records nothing. Throws std::runtime_error naming the path
  /// when the file cannot be created.
  explicit TraceLog(const std::string& path);
  ~TraceLog();
  TraceLog(const TraceLog&) = delete;
  TraceLog& operator=(const TraceLog&) = delete;

  bool enabled() const { return file_ != nullptr; }
  void write(const TraceRecord& record);
  /// One line of another shape (the replay's, bench/sim/replay_server.hpp), '\n' added.
  void write_line(std::string_view line);

 private:
  struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
  };
  std::unique_ptr<std::FILE, FileCloser> file_;
  std::string line_;
};

}  // namespace bench::sim
