#pragma once
// One streamed response, from its HTTP head to its last chunk, as the fault plan and the
// server's dialect say: the role chunk (or none, as llama.cpp), text chunks of one token or of
// several held back together, usage per chunk / on the last chunk / in a chunk of its own (or
// nowhere), comments, CRLF lines, and the mid-stream fault. The server feeds it tokens as the
// generation model produces them and acts on what each step says (write, stall, reset, end).
//
// A mid-stream fault strikes at the fault point: the chunk that carries token ceil(n / 2) of an
// n-token response. A malformed event goes just before that chunk; a stall follows it; a cut
// (reset, truncate, stream error) replaces the rest of the response.
#include <cstdint>
#include <string>
#include <string_view>

#include <memory>
#include <optional>

#include "bench/sim/api_events.hpp"
#include "bench/sim/faults.hpp"
#include "bench/sim/stream_format.hpp"
#include "bench/util/fnv1a.hpp"

namespace bench::sim {

struct StreamSetup {
  ResponseShape shape;                      // crlf is taken from the plan
  std::uint64_t text_seed = 0;              // picks the words of the generated text
  SimAnswers answers = SimAnswers::random;  // what the words say (GeneratedText)
  std::string_view canned_answer;           // answers canned: the known answer (static storage)
  std::int64_t prompt_tokens = 0;
  std::int64_t cached_prompt_tokens = -1;  // served by the prefix cache; -1 = cache off, not said
  std::int64_t target_tokens = 1;          // tokens this response will generate (>= 1)
  // Of them, the first this many are reasoning, streamed in the shape's reasoning field before
  // the answer (chat only); -1 = not a reasoning response (usage says nothing of reasoning).
  std::int64_t reasoning_tokens = -1;
  // Chat: the answer (the tokens after any reasoning) is a tool call to this function, streamed
  // as vLLM's tool parsers do: its first token names it, the others are argument fragments that
  // make {"text": "<words>"}; finish_reason "tool_calls" unless cut by length. Empty: text.
  std::string tool_name;
  bool stopped_by_length = true;     // finish_reason "length" rather than "stop"
  bool include_usage = false;        // stream_options.include_usage
  bool continuous_usage = false;     // stream_options.continuous_usage_stats (vLLM)
  bool keep_alive = true;            // the client's Connection wish
  bool usage_on_last_chunk = false;  // llama.cpp quirks (SimOptions)
  bool no_role_chunk = false;
  bool close_after_stream = false;
  FaultPlan plan;
};

class StreamRenderer {
 public:
  enum class Next {
    more,      // keep generating
    stall,     // the fault point of a stall: send nothing for plan.stall_ns, then go on
    finished,  // the whole response is in `out`
    reset,     // send what is in `out`, then reset the connection
  };
  struct Step {
    bool text_chunk = false;        // a text chunk was appended
    std::int64_t chunk_tokens = 0;  // its tokens
    bool answer_chunk = false;      // it carries answer text (not only reasoning or a tool call)
    bool tool_call_chunk = false;   // it carries a fragment of a tool call
    Next next = Next::more;
    std::string_view outcome;  // when finished or reset: "ok", "truncated", "stream_error",
                               // "reset" (the truth log's outcome)
  };

  explicit StreamRenderer(StreamSetup setup);

  /// Appends the response head and the events sent before any token.
  void begin(std::string& out);
  /// `tokens` more tokens exist: appends the events they complete, as one HTTP chunk.
  Step on_tokens(std::int64_t tokens, std::string& out);

  /// The connection closes after this response (Connection: close, or the llama.cpp quirk).
  bool closes_connection() const { return !setup_.keep_alive || setup_.close_after_stream; }
  std::int64_t sent_tokens() const { return sent_; }
  /// FNV-1a 64 of the answer text (not reasoning) sent so far, for the truth log.
  std::uint64_t answer_hash() const { return answer_hash_.value(); }

 private:
  void comment(std::string& events) const;
  void cut_stream(StreamCut cut, std::string& out, Step& step);
  void finish_stream(std::string& out, Step& step);
  void end_body(std::string& out, Step& step, std::string_view outcome);
  const Usage* chunk_usage(bool last, Usage& storage) const;
  Usage usage_so_far() const;
  void append_chunk_event(std::int64_t first, std::int64_t tokens, std::string_view finish_reason,
                          const Usage* usage, Step& step);
  void append_tool_call_arguments(std::int64_t first, std::int64_t tokens);
  void append_role_before_first_token();

  StreamSetup setup_;
  std::int64_t fault_at_;       // the fault point's token
  bool fault_pending_;          // a mid-stream fault has yet to strike
  std::int64_t generated_ = 0;  // tokens the model produced
  std::int64_t sent_ = 0;       // tokens in text chunks so far
  std::string events_;          // scratch: this step's SSE events
  std::string text_;            // scratch: this chunk's text (its answer, with reasoning)
  std::string reasoning_text_;  // scratch: this chunk's reasoning
  std::string arguments_;       // scratch: this chunk's tool-call argument fragment
  util::Fnv1a64 answer_hash_;   // of every chunk's answer text so far
  GeneratedText words_;         // the response's words
  // /v1/responses: the same tokens as Responses events, and the finish reason chat would give.
  std::unique_ptr<ApiEvents> api_events_;
  std::string_view finish_reason_;
  bool role_pending_ = false;  // a chat stream's role-only chunk goes with the first token
};

}  // namespace bench::sim
