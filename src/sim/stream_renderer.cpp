#include "bench/sim/stream_renderer.hpp"

#include "bench/sim/messages_api.hpp"
#include "bench/sim/responses_api.hpp"

#include <algorithm>
#include <utility>

namespace bench::sim {

StreamRenderer::StreamRenderer(StreamSetup setup)
    : setup_(std::move(setup)),
      fault_at_((std::max<std::int64_t>(1, setup_.target_tokens) + 1) / 2),
      fault_pending_(setup_.plan.cut != StreamCut::none || setup_.plan.malformed_json ||
                     setup_.plan.stall) {
  setup_.target_tokens = std::max<std::int64_t>(1, setup_.target_tokens);
  if (!setup_.shape.chat) {
    setup_.reasoning_tokens = -1;
    setup_.tool_name.clear();
  }
  setup_.reasoning_tokens = std::min(setup_.reasoning_tokens, setup_.target_tokens);
  setup_.shape.crlf = setup_.plan.crlf;
  if (setup_.shape.responses || setup_.shape.messages) {
    // Usage comes in the API's own events: llama.cpp's placement quirks are chat's.
    setup_.continuous_usage = false;
    setup_.usage_on_last_chunk = false;
    if (setup_.shape.responses) {
      api_events_ = std::make_unique<ResponsesEvents>(setup_.shape);
    } else {
      api_events_ = std::make_unique<MessagesEvents>(setup_.shape);
    }
  }
  words_ = {setup_.answers, setup_.text_seed, setup_.canned_answer,
            std::max<std::int64_t>(0, setup_.reasoning_tokens)};
}

void StreamRenderer::comment(std::string& events) const {
  // OpenRouter sends ": OPENROUTER PROCESSING" while it waits; sse-starlette sends ": ping".
  if (setup_.plan.comments) append_comment_event(events, setup_.shape, "keep-alive");
}

// The usage a text chunk carries: per chunk when continuous usage is asked (vLLM), and on the
// last chunk in llama.cpp's dialect, which sends it whether or not include_usage was asked.
const Usage* StreamRenderer::chunk_usage(bool last, Usage& storage) const {
  if (setup_.plan.no_usage) return nullptr;
  if (!setup_.continuous_usage && !(last && setup_.usage_on_last_chunk)) return nullptr;
  storage = usage_so_far();
  return &storage;
}

// The argument text of the tool call's tokens [first, first + tokens) (stream_format.hpp's rule).
void StreamRenderer::append_tool_call_arguments(std::int64_t first, std::int64_t tokens) {
  arguments_.clear();
  sim::append_tool_call_arguments(arguments_, words_,
                                  std::max<std::int64_t>(0, setup_.reasoning_tokens),
                                  setup_.target_tokens, first, tokens);
}

Usage StreamRenderer::usage_so_far() const {
  Usage usage{setup_.prompt_tokens, sent_, setup_.cached_prompt_tokens};
  if (setup_.reasoning_tokens >= 0) {
    usage.reasoning_tokens = std::min(sent_, setup_.reasoning_tokens);
  }
  return usage;
}

// Tokens [first, first + tokens) as one chunk: reasoning while the response is still thinking, the
// answer after, both in the chunk that crosses from one to the other.
void StreamRenderer::append_chunk_event(std::int64_t first, std::int64_t tokens,
                                        std::string_view finish_reason, const Usage* usage,
                                        Step& step) {
  const std::int64_t reasoning =
      std::clamp<std::int64_t>(setup_.reasoning_tokens - first, 0, tokens);
  reasoning_text_.clear();
  text_.clear();
  append_generated_text(reasoning_text_, words_, first, reasoning);
  if (!setup_.tool_name.empty() && reasoning < tokens) {
    append_tool_call_arguments(first + reasoning, tokens - reasoning);
    const bool names = first + reasoning == std::max<std::int64_t>(0, setup_.reasoning_tokens);
    step.tool_call_chunk = true;
    if (api_events_) {
      api_events_->reasoning(events_, reasoning_text_);
      api_events_->tool_call(events_, names ? std::string_view(setup_.tool_name) : "", arguments_);
      return;
    }
    append_tool_call_event(events_, setup_.shape, reasoning_text_,
                           names ? std::string_view(setup_.tool_name) : std::string_view(),
                           arguments_, finish_reason, usage);
    return;
  }
  append_generated_text(text_, words_, first + reasoning, tokens - reasoning);
  step.answer_chunk = reasoning < tokens;
  answer_hash_.add(text_);
  if (api_events_) {
    api_events_->reasoning(events_, reasoning_text_);
    if (reasoning < tokens) api_events_->answer(events_, text_);
    return;
  }
  if (reasoning > 0) {
    append_reasoning_event(events_, setup_.shape, reasoning_text_, text_, finish_reason, usage);
  } else {
    append_text_event(events_, setup_.shape, text_, finish_reason, usage);
  }
}

void StreamRenderer::begin(std::string& out) {
  append_stream_head(out, setup_.keep_alive, setup_.close_after_stream);
  events_.clear();
  comment(events_);
  if (api_events_) {
    api_events_->begin(events_, usage_so_far());
  } else {
    role_pending_ = setup_.shape.chat && !setup_.no_role_chunk;
  }
  append_http_chunk(out, events_);
}

// vLLM and SGLang open a chat stream with a role-only delta written when the engine's first
// output arrives, in the same loop turn as the first token's delta, not when the request is
// admitted: vLLM's chat_completion_stream_generator sends it on the first iteration of
// `async for res in result_generator` (vllm/entrypoints/openai/serving_chat.py), SGLang's
// _generate_chat_stream on its first content (python/sglang/srt/entrypoints/openai/
// serving_chat.py). A client that stamps the role chunk (vLLM's) then times the first token.
void StreamRenderer::append_role_before_first_token() {
  role_pending_ = false;
  const Usage usage = usage_so_far();  // no completion token yet, as vLLM's role chunk says
  const bool usage_here = setup_.continuous_usage && !setup_.plan.no_usage;
  append_role_event(events_, setup_.shape, usage_here ? &usage : nullptr);
}

StreamRenderer::Step StreamRenderer::on_tokens(std::int64_t tokens, std::string& out) {
  generated_ = std::min(generated_ + tokens, setup_.target_tokens);
  const bool finished = generated_ >= setup_.target_tokens;
  const bool at_fault = fault_pending_ && generated_ >= fault_at_;
  const std::int64_t pending = generated_ - sent_;
  Step step;
  // Tokens are held back until a group is whole, as llama.cpp holds an incomplete UTF-8 byte.
  if (pending == 0 || (!finished && !at_fault && pending < setup_.plan.tokens_per_chunk)) {
    return step;
  }

  events_.clear();
  if (role_pending_) append_role_before_first_token();
  const StreamCut cut = at_fault ? setup_.plan.cut : StreamCut::none;
  if (at_fault && setup_.plan.malformed_json) {
    comment(events_);
    append_malformed_event(events_, setup_.shape);
  }
  const std::int64_t first = sent_;
  sent_ += pending;
  step.text_chunk = true;
  step.chunk_tokens = pending;
  const bool last = finished && cut == StreamCut::none;
  const std::string_view finish_reason = !last                      ? ""
                                         : setup_.stopped_by_length ? "length"
                                         : setup_.tool_name.empty() ? "stop"
                                                                    : "tool_calls";
  if (last) finish_reason_ = finish_reason;
  Usage usage;
  comment(events_);
  append_chunk_event(first, pending, finish_reason, chunk_usage(last, usage), step);

  if (at_fault) fault_pending_ = false;
  if (cut != StreamCut::none) {
    cut_stream(cut, out, step);
  } else if (finished) {
    finish_stream(out, step);
  } else {
    append_http_chunk(out, events_);
    if (at_fault && setup_.plan.stall) step.next = Next::stall;
  }
  return step;
}

// The body's last bytes: the events pending, then the chunked encoding's end; `outcome` for the
// truth log.
void StreamRenderer::end_body(std::string& out, Step& step, std::string_view outcome) {
  append_http_chunk(out, events_);
  append_last_http_chunk(out);
  step.next = Next::finished;
  step.outcome = outcome;
}

// The fault that ends the stream after this chunk: a reset, a body cut short, or an error event.
void StreamRenderer::cut_stream(StreamCut cut, std::string& out, Step& step) {
  switch (cut) {
    case StreamCut::reset:
      append_http_chunk(out, events_);
      step.next = Next::reset;
      step.outcome = "reset";
      return;
    case StreamCut::truncate: end_body(out, step, "truncated"); return;
    case StreamCut::stream_error:
      comment(events_);
      append_stream_error_event(events_, setup_.shape,
                                "simulated error inside the stream (--stream-error-fraction)");
      // Anthropic's stream ends at its error event: no [DONE] follows.
      if (!setup_.shape.messages) {
        comment(events_);
        append_done_event(events_, setup_.shape);
      }
      end_body(out, step, "stream_error");
      return;
    case StreamCut::none: return;
  }
}

// The end of a whole stream: the usage chunk when asked for, then [DONE].
void StreamRenderer::finish_stream(std::string& out, Step& step) {
  if (api_events_) {
    const Usage usage = usage_so_far();
    comment(events_);
    api_events_->finish(events_, finish_reason_, setup_.plan.no_usage ? nullptr : &usage);
    end_body(out, step, "ok");
    return;
  }
  if (setup_.include_usage && !setup_.plan.no_usage && !setup_.usage_on_last_chunk) {
    comment(events_);
    append_usage_event(events_, setup_.shape, usage_so_far());
  }
  comment(events_);
  append_done_event(events_, setup_.shape);
  end_body(out, step, "ok");
}

}  // namespace bench::sim
