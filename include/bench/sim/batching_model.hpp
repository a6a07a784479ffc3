#pragma once
// A continuous-batching engine in simulated time, shaped after vLLM V1's and SGLang's
// schedulers: requests wait in a FIFO queue, enter the engine while --max-running-requests and
// the KV budget allow, and every step runs one forward pass over a batch made of
//   - one token for each running sequence that is decoding, then
//   - prompt chunks of sequences still in prefill (chunked prefill), then
//   - the first chunks of newly admitted requests,
// within max_batched_tokens tokens. A step lasts (docs/simulator.md, "cost model")
//   step_us + comm_us_per_step                          once per forward pass
//   + decode_us_per_seq x decoding sequences            decode compute, per-token all-reduce bytes
//   + decode_ns_per_context_token x their KV tokens     attention reading the cache
//   + prefill_us_per_token x prompt tokens in the step
// and every sequence in it gets its token at the step's end: the first token at the end of the
// step that finishes its prompt, then one per decode step. So the time per token of every
// sequence grows with the batch, as it does in real engines.
//
// A prompt prefix the server's prefix cache holds (skip_prefill) is not computed again: only the
// rest of the prompt goes through prefill, though the whole of it holds KV.
//
// KV is reserved whole at admission (prompt + every output token), as TensorRT-LLM's default
// GUARANTEED_NO_EVICT capacity policy does, so no running request is ever preempted; a request
// that does not fit waits at the head of the queue (FIFO, no overtaking).
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "bench/sim/generation_model.hpp"
#include "bench/sim/sim_options.hpp"

namespace bench::sim {

class BatchingModel final : public GenerationModel {
 public:
  /// `time_scale` > 0: every step's simulated duration is divided by it.
  BatchingModel(const EngineParams& params, double time_scale);

  void admit(StreamId id, std::int64_t prompt_tokens, std::int64_t output_tokens,
             std::int64_t now_ns) override;
  void skip_prefill(StreamId id, std::int64_t tokens) override;
  void remove(StreamId id) override;
  void resume(StreamId id, std::int64_t now_ns) override;
  std::int64_t next_event_ns() const override;
  void advance(std::int64_t now_ns, TokenSink& sink) override;
  std::int64_t token_capacity() const override { return params_.kv_cache_tokens; }

  /// Real-time length of a step with this content, ns (the cost model above / time scale).
  std::int64_t step_ns(std::int64_t decoding, std::int64_t context_tokens,
                       std::int64_t prefill_tokens) const;

  std::size_t waiting() const override;  // admitted by the server, not yet running
  std::size_t running() const;           // holding KV (held streams included)
  std::int64_t kv_used_tokens() const { return kv_used_; }
  std::optional<double> kv_usage_ratio() const override;  // kv_used / the KV budget

 private:
  struct Sequence {
    std::int64_t arrival_ns = 0;
    std::int64_t prompt = 1;  // tokens to prefill (at least one forward pass)
    std::int64_t output = 1;  // tokens to generate
    std::int64_t prefilled = 0;
    std::int64_t generated = 0;
    bool running = false;  // admitted into the engine: holds KV
    bool held = false;     // backpressure: skipped by steps until resume()
    std::int64_t footprint() const { return prompt + output; }
  };
  struct Entry {
    StreamId id;
    std::int64_t prefill_tokens;  // > 0: a prompt chunk; 0: one decode token
  };

  bool compose(std::int64_t start_ns);  // builds the next step; false when there is no work
  void complete(TokenSink& sink);       // the step in flight ends: hands out its tokens
  void wake(std::int64_t now_ns);       // something changed while idle: look again

  EngineParams params_;
  double ns_per_us_;  // 1000 / time_scale
  std::unordered_map<StreamId, Sequence> sequences_;
  std::deque<StreamId> waiting_;   // may hold removed ids; skipped when met
  std::vector<StreamId> running_;  // admission order; removed ids compacted at each step
  std::vector<Entry> step_;
  bool in_step_ = false;
  std::int64_t step_start_ns_ = 0;
  std::int64_t step_end_ns_ = 0;
  std::int64_t wake_ns_ = kNever;  // idle: when advance() should look for work
  std::int64_t kv_used_ = 0;
};

}  // namespace bench::sim
