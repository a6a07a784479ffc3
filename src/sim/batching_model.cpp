#include "bench/sim/batching_model.hpp"

#include <algorithm>
#include <cmath>

namespace bench::sim {

BatchingModel::BatchingModel(const EngineParams& params, double time_scale)
    : params_(params), ns_per_us_(1000.0 / time_scale) {
  params_.max_running_requests = std::max<std::int64_t>(1, params_.max_running_requests);
  params_.kv_cache_tokens = std::max<std::int64_t>(1, params_.kv_cache_tokens);
  params_.max_batched_tokens = std::max<std::int64_t>(1, params_.max_batched_tokens);
}

void BatchingModel::admit(StreamId id, std::int64_t prompt_tokens, std::int64_t output_tokens,
                          std::int64_t now_ns) {
  Sequence sequence;
  sequence.arrival_ns = now_ns;
  sequence.prompt = std::max<std::int64_t>(1, prompt_tokens);
  sequence.output = std::max<std::int64_t>(1, output_tokens);
  // The server refuses what can never fit (token_capacity); this keeps a caller that does not
  // from blocking the queue forever.
  if (sequence.footprint() > params_.kv_cache_tokens) {
    sequence.output = std::max<std::int64_t>(1, params_.kv_cache_tokens - sequence.prompt);
    sequence.prompt = std::min(sequence.prompt, params_.kv_cache_tokens - sequence.output);
  }
  sequences_[id] = sequence;
  waiting_.push_back(id);
  wake(now_ns);
}

void BatchingModel::skip_prefill(StreamId id, std::int64_t tokens) {
  const auto found = sequences_.find(id);
  if (found == sequences_.end() || found->second.running) return;
  // The last prompt token is always computed: its step samples the first output token.
  Sequence& sequence = found->second;
  sequence.prefilled = std::clamp<std::int64_t>(tokens, 0, sequence.prompt - 1);
}

void BatchingModel::remove(StreamId id) {
  const auto found = sequences_.find(id);
  if (found == sequences_.end()) return;
  if (found->second.running) kv_used_ -= found->second.footprint();
  sequences_.erase(found);
  // Its KV is free now; a waiting request may fit. A step in flight looks again when it ends.
  if (!in_step_ && !waiting_.empty()) wake(step_end_ns_);
}

void BatchingModel::resume(StreamId id, std::int64_t now_ns) {
  const auto found = sequences_.find(id);
  if (found == sequences_.end() || !found->second.held) return;
  found->second.held = false;
  wake(now_ns);
}

void BatchingModel::wake(std::int64_t now_ns) {
  if (!in_step_) wake_ns_ = std::min(wake_ns_, now_ns);
}

std::int64_t BatchingModel::next_event_ns() const { return in_step_ ? step_end_ns_ : wake_ns_; }

std::size_t BatchingModel::waiting() const {
  return static_cast<std::size_t>(
      std::count_if(sequences_.begin(), sequences_.end(),
                    [](const auto& entry) { return !entry.second.running; }));
}

std::size_t BatchingModel::running() const { return sequences_.size() - waiting(); }

std::optional<double> BatchingModel::kv_usage_ratio() const {
  if (params_.kv_cache_tokens <= 0) return std::nullopt;
  return static_cast<double>(kv_used_) / static_cast<double>(params_.kv_cache_tokens);
}

std::int64_t BatchingModel::step_ns(std::int64_t decoding, std::int64_t context_tokens,
                                    std::int64_t prefill_tokens) const {
  const double us =
      params_.step_us + params_.comm_us_per_step +
      params_.decode_us_per_seq * static_cast<double>(decoding) +
      params_.decode_ns_per_context_token * 1e-3 * static_cast<double>(context_tokens) +
      params_.prefill_us_per_token * static_cast<double>(prefill_tokens);
  return std::llround(us * ns_per_us_);
}

void BatchingModel::advance(std::int64_t now_ns, TokenSink& sink) {
  while (true) {
    if (in_step_) {
      if (step_end_ns_ > now_ns) return;
      complete(sink);
      // Steps run back to back, each from the end of the last, so a late loop does not drift.
      if (compose(step_end_ns_)) continue;
    }
    if (wake_ns_ > now_ns) return;
    // An idle engine starts as soon as it is told of work: with everything that has arrived.
    wake_ns_ = kNever;
    if (!compose(now_ns)) return;
  }
}

bool BatchingModel::compose(std::int64_t start_ns) {
  std::erase_if(running_, [this](StreamId id) { return !sequences_.contains(id); });
  step_.clear();
  std::int64_t budget = params_.max_batched_tokens;
  std::int64_t decoding = 0;
  std::int64_t context_tokens = 0;
  std::int64_t prefill_tokens = 0;

  // Running sequences first (vLLM V1 and SGLang both serve them before admitting new work):
  // decodes take one token of the budget each, unfinished prompts the next chunk.
  for (const StreamId id : running_) {
    if (budget == 0) break;
    const Sequence& sequence = sequences_.at(id);
    if (sequence.held) continue;
    if (sequence.prefilled < sequence.prompt) {
      const std::int64_t chunk = std::min(sequence.prompt - sequence.prefilled, budget);
      step_.push_back({id, chunk});
      budget -= chunk;
      prefill_tokens += chunk;
    } else {
      step_.push_back({id, 0});
      budget -= 1;
      ++decoding;
      context_tokens += sequence.prompt + sequence.generated;
    }
  }

  // Then the queue, in arrival order, while slots, KV and budget last.
  while (!waiting_.empty() && budget > 0 &&
         static_cast<std::int64_t>(running_.size()) < params_.max_running_requests) {
    const auto found = sequences_.find(waiting_.front());
    if (found == sequences_.end()) {  // removed while it waited
      waiting_.pop_front();
      continue;
    }
    Sequence& sequence = found->second;
    // It arrived after this step's start (the loop ran late): it joins the next step, and if
    // this one turns out empty the engine must still wake for it, as admit() could not while a
    // step was in flight.
    if (sequence.arrival_ns > start_ns) {
      wake_ns_ = std::min(wake_ns_, sequence.arrival_ns);
      break;
    }
    if (kv_used_ + sequence.footprint() > params_.kv_cache_tokens) break;
    waiting_.pop_front();
    sequence.running = true;
    kv_used_ += sequence.footprint();
    running_.push_back(found->first);
    const std::int64_t chunk = std::min(sequence.prompt - sequence.prefilled, budget);
    step_.push_back({found->first, chunk});
    budget -= chunk;
    prefill_tokens += chunk;
  }

  if (step_.empty()) return false;
  in_step_ = true;
  step_start_ns_ = start_ns;
  step_end_ns_ = start_ns + step_ns(decoding, context_tokens, prefill_tokens);
  return true;
}

void BatchingModel::complete(TokenSink& sink) {
  in_step_ = false;
  StepFacts facts;
  facts.start_ns = step_start_ns_;
  facts.end_ns = step_end_ns_;
  facts.batch_size = static_cast<std::int64_t>(step_.size());
  // The sink may remove any stream (its client left, a fault ended it): look each one up anew.
  const std::vector<Entry> entries = std::move(step_);
  step_.clear();
  for (const Entry& entry : entries) {
    const auto found = sequences_.find(entry.id);
    if (found == sequences_.end()) continue;
    Sequence& sequence = found->second;
    bool emits = entry.prefill_tokens == 0;
    facts.prefill_tokens = entry.prefill_tokens;
    facts.prefill_done = false;
    if (entry.prefill_tokens > 0) {
      sequence.prefilled += entry.prefill_tokens;
      // The step that computes the prompt's last token also samples the first output token.
      facts.prefill_done = emits = sequence.prefilled >= sequence.prompt;
    }
    sink.on_step(entry.id, facts);
    if (!emits) continue;
    if (!sequences_.contains(entry.id)) continue;  // removed by on_step's owner
    Sequence& live = sequences_.at(entry.id);
    live.generated += 1;
    const bool finished = live.generated >= live.output;
    if (finished) {
      kv_used_ -= live.footprint();
      sequences_.erase(entry.id);
    }
    const bool accepting = sink.on_tokens(entry.id, 1);
    if (finished || accepting) continue;
    const auto still = sequences_.find(entry.id);
    if (still != sequences_.end()) still->second.held = true;
  }
}

}  // namespace bench::sim
