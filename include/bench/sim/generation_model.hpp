#pragma once
// When the embedded server's requests produce their tokens. The server owns sockets and bytes;
// a GenerationModel owns time: it is told of each admitted request and says, as the clock
// advances, which streams have new tokens. Models differ in how requests share the "GPU":
// FixedLatencyModel gives every request its own fixed TTFT and time per token, independent of
// load; BatchingModel (batching_model.hpp: continuous batching with a KV budget) makes them
// compete for one simulated engine.
#include <cstdint>
#include <limits>
#include <optional>
#include <queue>
#include <unordered_map>
#include <utility>
#include <vector>

namespace bench::sim {

using StreamId = std::uint64_t;

inline constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

/// What a scheduling model did with one stream in one step, for the truth log.
struct StepFacts {
  std::int64_t start_ns = 0;        // the step began (steady clock, already time-scaled)
  std::int64_t end_ns = 0;          // the step ended: its tokens are due now
  std::int64_t batch_size = 0;      // sequences in the step (decoding and prefilling)
  std::int64_t prefill_tokens = 0;  // this stream's prompt tokens computed in the step
  bool prefill_done = false;        // this step finished the stream's prompt
};

class TokenSink {
 public:
  virtual ~TokenSink() = default;
  /// `tokens` new tokens of stream `id` are ready. Returns false when the stream's connection
  /// cannot take more bytes now; a model that honours backpressure then holds the stream until
  /// resume(). The last call for a stream delivers its final token.
  virtual bool on_tokens(StreamId id, std::int64_t tokens) = 0;
  /// Called by models with a scheduler for every stream in a step that just ended, before that
  /// step's on_tokens. The default ignores it; the server keeps it for the truth log.
  virtual void on_step(StreamId id, const StepFacts& facts) {
    (void)id;
    (void)facts;
  }
};

class GenerationModel {
 public:
  virtual ~GenerationModel() = default;
  /// A request arrives at `now_ns` and will generate exactly `output_tokens` (>= 1) tokens.
  virtual void admit(StreamId id, std::int64_t prompt_tokens, std::int64_t output_tokens,
                     std::int64_t now_ns) = 0;
  /// The server's prefix cache holds the first `tokens` prompt tokens of stream `id`, admitted
  /// just now: they take KV but no prefill. Models without a prefill cost ignore it.
  virtual void skip_prefill(StreamId id, std::int64_t tokens) {
    (void)id;
    (void)tokens;
  }
  /// The request is gone (client closed, fault): it produces nothing more. Unknown ids are ignored.
  virtual void remove(StreamId id) = 0;
  /// Resumes a stream held after on_tokens returned false.
  virtual void resume(StreamId id, std::int64_t now_ns) = 0;
  /// The earliest steady-clock time at which advance() has work, or kNever.
  virtual std::int64_t next_event_ns() const = 0;
  /// Delivers every token due at or before `now_ns`.
  virtual void advance(std::int64_t now_ns, TokenSink& sink) = 0;
  /// The most tokens (prompt + output) one request may hold; the server refuses larger ones
  /// with HTTP 400, as vLLM does past max_model_len. kNever = no limit.
  virtual std::int64_t token_capacity() const { return kNever; }
  /// Requests admitted but not yet running (queued for the engine), for /metrics. A model
  /// without a queue has none.
  virtual std::size_t waiting() const { return 0; }
  /// The share (0..1) of the KV budget held now, for /metrics; nullopt without a budget.
  virtual std::optional<double> kv_usage_ratio() const { return std::nullopt; }
};

/// Every request on its own clock: the first `tokens_per_step` tokens `ttft_ns` after arrival,
/// then `tokens_per_step` more every tokens_per_step x `tpot_ns`, so the time per output token
/// stays tpot_ns whatever the chunk size. Load changes nothing (an ideal server). With tpot 0 it
/// is a firehose: tokens flow as fast as the client reads them (backpressure is honoured).
class FixedLatencyModel final : public GenerationModel {
 public:
  FixedLatencyModel(std::int64_t ttft_ns, std::int64_t tpot_ns, std::int64_t tokens_per_step);

  void admit(StreamId id, std::int64_t prompt_tokens, std::int64_t output_tokens,
             std::int64_t now_ns) override;
  void remove(StreamId id) override;
  void resume(StreamId id, std::int64_t now_ns) override;
  std::int64_t next_event_ns() const override;
  void advance(std::int64_t now_ns, TokenSink& sink) override;

 private:
  struct Due {
    std::int64_t at_ns;
    StreamId id;
    bool operator>(const Due& other) const {
      return at_ns != other.at_ns ? at_ns > other.at_ns : id > other.id;
    }
  };
  struct Progress {
    std::int64_t remaining = 0;  // tokens still to generate
    bool held = false;           // waiting for resume(): no entry in due_
  };

  std::int64_t ttft_ns_;
  std::int64_t tpot_ns_;
  std::int64_t tokens_per_step_;
  std::priority_queue<Due, std::vector<Due>, std::greater<>> due_;  // may hold stale entries
  std::unordered_map<StreamId, Progress> streams_;
};

}  // namespace bench::sim
