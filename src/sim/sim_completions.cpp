// A completion request inside the embedded server, from its arrival to its last chunk: it draws
// its fault plan (faults.hpp), is refused at once (HTTP faults, too long) or admitted into the
// generation model, and every token the model hands back goes through its StreamRenderer into
// the connection's output buffer, with the truth log's record kept alongside.
#include <algorithm>
#include <optional>
#include <random>
#include <string>

#include <fmt/format.h>

#include "bench/sim/faults.hpp"
#include "bench/sim/messages_api.hpp"
#include "bench/sim/responses_api.hpp"
#include "bench/sim/whole_response.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/words.hpp"
#include "server_impl.hpp"

namespace bench::sim {

namespace {

// How many tokens the request generates: max_tokens, unless an EOS comes first. The number of
// tokens before an EOS is geometric: each token ends the output with probability p.
std::int64_t draw_output_tokens(std::int64_t max_tokens, bool ignore_eos, double eos_probability,
                                std::uint64_t request_seed) {
  if (ignore_eos || eos_probability <= 0) return max_tokens;
  std::mt19937_64 eos_rng(request_seed);
  std::geometric_distribution<std::int64_t> until_eos(eos_probability);
  return std::min(until_eos(eos_rng) + 1, max_tokens);
}

// vLLM's refusal of a request beyond max_model_len (its serving layer's input check, before the
// engine sees the request), or nothing when the request fits. `max_tokens` is the request's own.
std::optional<std::string> context_refusal(std::int64_t prompt_tokens,
                                           std::optional<std::int64_t> max_tokens,
                                           std::int64_t max_model_len) {
  if (prompt_tokens >= max_model_len) {
    return fmt::format(
        "This model's maximum context length is {} tokens. However, your request "
        "has {} input tokens. Please reduce the length of the input messages.",
        max_model_len, prompt_tokens);
  }
  if (max_tokens && prompt_tokens + *max_tokens > max_model_len) {
    return fmt::format(
        "'max_tokens' or 'max_completion_tokens' is too large: {}. This model's "
        "maximum context length is {} tokens and your request has {} input "
        "tokens ({} > {} - {}).",
        *max_tokens, max_model_len, prompt_tokens, *max_tokens, max_model_len, prompt_tokens);
  }
  return std::nullopt;
}

// How many of a response's tokens are reasoning (--reasoning-tokens): -1 when the simulator is
// no reasoning model or the response is no chat answer (streamed or whole); 0 for a chat answer
// that the --reasoning-fraction draw leaves without reasoning.
std::int64_t draw_reasoning_tokens(const SimOptions& options, bool chat, std::int64_t target_tokens,
                                   std::uint64_t request_seed) {
  if (options.reasoning_tokens <= 0 || !chat) return -1;
  // Its own stream of draws, so turning reasoning on changes no fault or EOS draw.
  std::mt19937_64 reasoning_rng(request_seed ^ 0x9E3779B97F4A7C15ULL);
  const bool reasons =
      std::uniform_real_distribution<double>(0.0, 1.0)(reasoning_rng) < options.reasoning_fraction;
  return reasons ? std::min(options.reasoning_tokens, target_tokens) : 0;
}

// Whether the answer is a tool call (--tool-call-fraction): only a chat answer whose request
// carries tools, never with tool_choice "none", always with "required" or a named function.
bool draw_tool_call(const SimOptions& options, const CompletionRequest& request, bool chat,
                    std::uint64_t request_seed) {
  using ToolChoice = CompletionRequest::ToolChoice;
  if (!chat || request.tool_name.empty() || request.tool_choice == ToolChoice::none) {
    return false;
  }
  if (request.tool_choice == ToolChoice::required) return true;
  // Its own stream of draws, so turning tool calls on changes no other draw.
  std::mt19937_64 tool_rng(request_seed ^ 0xC2B2AE3D27D4EB4FULL);
  return std::uniform_real_distribution<double>(0.0, 1.0)(tool_rng) < options.tool_call_fraction;
}

// The known answer the response gives (--answers canned, one of the answer check's prompts);
// empty for any other request. ignore_eos asks for the whole max_tokens, past any answer's end,
// so such a request is answered with the usual words.
std::string_view canned_answer(const SimOptions& options, const CompletionRequest& request) {
  if (options.answers != SimAnswers::canned || request.known_prompt == nullptr ||
      request.ignore_eos) {
    return {};
  }
  return request.known_prompt->canned_answer;
}

GeneratedText generated_text(const SimOptions& options, const CompletionRequest& request,
                             std::uint64_t seed, std::int64_t reasoning_tokens) {
  return {options.answers, seed, canned_answer(options, request),
          std::max<std::int64_t>(0, reasoning_tokens)};
}

}  // namespace

SimServer::Impl::Stream SimServer::Impl::new_stream(Connection& connection,
                                                    CompletionRequest request,
                                                    const HttpRequest& http, bool chat, StreamId id,
                                                    const FaultPlan& plan) {
  Stream stream;
  stream.fd = connection.fd.get();
  stream.request = std::move(request);
  stream.keep_alive = http.keep_alive;
  stream.shape.chat = chat;
  stream.shape.id = fmt::format("{}-{}", chat ? "chatcmpl" : "cmpl", id);
  stream.shape.model_json =
      stream.request.model.empty() ? model_json : json_string(stream.request.model);
  stream.shape.created = unix_seconds();
  stream.shape.reasoning_field = options.reasoning_field;
  stream.trace.id = stream.shape.id;
  stream.trace.chat = chat;
  stream.trace.stream = stream.request.stream;
  stream.trace.arrival_ns = connection.read_ns;
  stream.trace.prompt_tokens = stream.request.prompt_tokens;
  stream.trace.prompt_hash = stream.request.prompt_hash;
  stream.trace.last_assistant_hash = stream.request.last_assistant_hash;
  stream.trace.faults_json = plan.names_json();
  stream.miscounted_tokens = plan.metrics_miscount ? 1 : 0;
  return stream;
}

// Refuses what the plan fails with an HTTP error, or what does not fit the model's context;
// returns whether it did.
bool SimServer::Impl::refused(Connection& connection, Stream& stream, const FaultPlan& plan,
                              std::int64_t max_tokens) {
  if (plan.http_status != 0) {
    const char* message = plan.http_status == 429   ? "simulated rate limit (--fail-429-fraction)"
                          : plan.http_status == 503 ? "simulated overload (--fail-503-fraction)"
                                                    : "simulated internal error "
                                                      "(--fail-500-fraction)";
    refuse_completion(connection, stream, plan.http_status, message);
    return true;
  }
  if (const auto refusal = context_refusal(stream.request.prompt_tokens, stream.request.max_tokens,
                                           options.max_model_len)) {
    refuse_completion(connection, stream, 400, *refusal);
    return true;
  }
  const std::int64_t capacity = model->token_capacity();
  if (capacity != kNever && stream.request.prompt_tokens + max_tokens > capacity) {
    // A request the modelled KV cache could never hold (--kv-cache-tokens), refused in vLLM's
    // older wording for a context overflow; the max_model_len check above uses today's.
    refuse_completion(
        connection, stream, 400,
        fmt::format("This model's maximum context length is {} tokens. However, you requested "
                    "{} tokens ({} in the messages, {} in the completion).",
                    capacity, stream.request.prompt_tokens + max_tokens,
                    stream.request.prompt_tokens, max_tokens));
    return true;
  }
  return false;
}

// A streamed response's renderer, with its first bytes (headers, the role chunk) queued.
void SimServer::Impl::begin_streaming(Connection& connection, Stream& stream, StreamId id,
                                      const FaultPlan& plan) {
  StreamSetup setup;
  setup.shape = stream.shape;
  setup.text_seed = id;
  setup.answers = options.answers;
  setup.canned_answer = canned_answer(options, stream.request);
  setup.prompt_tokens = stream.request.prompt_tokens;
  setup.cached_prompt_tokens = stream.cached_prompt_tokens;
  setup.target_tokens = stream.target_tokens;
  setup.reasoning_tokens = stream.reasoning_tokens;
  setup.tool_name = stream.trace.tool_name;
  setup.stopped_by_length = stream.stopped_by_length;
  setup.include_usage = stream.request.include_usage;
  setup.continuous_usage = stream.request.continuous_usage;
  setup.keep_alive = stream.keep_alive;
  setup.usage_on_last_chunk = options.usage_on_last_chunk;
  setup.no_role_chunk = options.no_role_chunk;
  setup.close_after_stream = options.close_after_stream;
  setup.plan = plan;
  stream.stall_ns = plan.stall_ns;
  stream.renderer = std::make_unique<StreamRenderer>(std::move(setup));
  stream.renderer->begin(connection.out);
  mark_dirty(connection);
}

// The request's output: how many tokens it may generate, and what the simulator drew for it
// (its length, its reasoning, a tool call). Returns the max_tokens it may generate.
std::int64_t SimServer::Impl::draw_lengths(Stream& stream, bool chat, std::uint64_t request_seed) {
  // Without max_tokens a request may generate up to the context's end, as vLLM allows; the
  // simulator's default output length stops it sooner.
  const std::int64_t max_tokens = stream.request.max_tokens.value_or(
      std::min(options.default_max_tokens,
               std::max<std::int64_t>(1, options.max_model_len - stream.request.prompt_tokens)));
  const std::int64_t answer_words = util::count_words(canned_answer(options, stream.request));
  if (answer_words > 0) {
    // A known answer, then EOS: a reasoning model thinks within the room the answer leaves.
    stream.reasoning_tokens = draw_reasoning_tokens(
        options, chat, std::max<std::int64_t>(0, max_tokens - answer_words), request_seed);
    const std::int64_t wanted = std::max<std::int64_t>(0, stream.reasoning_tokens) + answer_words;
    stream.target_tokens = std::min(wanted, max_tokens);
    stream.stopped_by_length = wanted > max_tokens;
  } else {
    stream.target_tokens = draw_output_tokens(max_tokens, stream.request.ignore_eos,
                                              options.eos_probability, request_seed);
    stream.stopped_by_length = stream.target_tokens == max_tokens;
    stream.reasoning_tokens =
        draw_reasoning_tokens(options, chat, stream.target_tokens, request_seed);
  }
  stream.trace.reasoning_tokens = std::max<std::int64_t>(0, stream.reasoning_tokens);
  if (draw_tool_call(options, stream.request, chat, request_seed)) {
    stream.trace.tool_name = stream.request.tool_name;
  }
  return max_tokens;
}

// A request the server takes: the prefix cache's hit, its stream's first bytes, then the model
// (now, or after its jitter).
void SimServer::Impl::accept_stream(Connection& connection, Stream stream, StreamId id,
                                    const FaultPlan& plan, std::string_view body, bool chat) {
  // The prefix cache decides what the engine need not prefill, before the model sees it.
  std::int64_t cached_tokens = -1;
  if (prefix_cache) {
    cached_tokens = prefix_cache->admit(prompt_block_hashes(body, chat, counter.image_patch_px()),
                                        stream.request.prompt_tokens);
    stream.trace.cached_prompt_tokens = cached_tokens;
  }
  stream.cached_prompt_tokens = cached_tokens;
  if (stream.request.stream) begin_streaming(connection, stream, id, plan);
  connection.stream = id;
  stream.trace.jitter_ns = plan.jitter_ns;
  streams.emplace(id, std::move(stream));
  if (plan.jitter_ns > 0) {
    jitters.emplace(connection.read_ns + plan.jitter_ns, id);
  } else {
    admit_to_model(id, connection.read_ns);
  }
}

void SimServer::Impl::start_completion(Connection& connection, const HttpRequest& http, bool chat,
                                       EventApi api) {
  // A named-events API's body, as the chat body it amounts to; refused in that API's words.
  std::optional<std::string> as_chat;
  if (api != EventApi::none) {
    if (api == EventApi::responses) {
      ResponsesAsChat read = chat_body_of_responses(http.body);
      as_chat = std::move(read.chat_body);
      if (!as_chat) send_error(connection, 400, read.error, http.keep_alive);
    } else {
      MessagesAsChat read = chat_body_of_messages(http.body);
      as_chat = std::move(read.chat_body);
      if (!as_chat) send_error(connection, 400, read.error, http.keep_alive);
    }
    if (!as_chat) {
      served.fetch_add(1);
      return;
    }
  }
  const std::string_view body = as_chat ? std::string_view(*as_chat) : http.body;
  ParsedCompletionRequest parsed = parse_completion_request(body, chat, counter);
  if (!parsed.request) {
    send_error(connection, 400, parsed.error, http.keep_alive);
    served.fetch_add(1);
    return;
  }
  if (options.refuse_unknown_model && parsed.request->model != options.model) {
    send_error(connection, 404,
               fmt::format("The model `{}` does not exist.", parsed.request->model),
               http.keep_alive);
    served.fetch_add(1);
    return;
  }
  // One draw per request, in arrival order, seeds every random choice about it (faults.hpp).
  const std::uint64_t request_seed = rng();
  FaultPlan plan = draw_fault_plan(options, request_seed);
  if (!parsed.request->stream) plan = plan.without_stream_faults();
  const StreamId id = next_stream_id++;
  Stream stream = new_stream(connection, std::move(*parsed.request), http, chat, id, plan);
  if (api == EventApi::responses) {
    stream.shape.responses = true;
    stream.shape.id = fmt::format("resp-{}", id);
    stream.trace.id = stream.shape.id;
    stream.trace.responses = true;
  } else if (api == EventApi::messages) {
    stream.shape.messages = true;
    stream.shape.id = fmt::format("msg_{}", id);
    stream.trace.id = stream.shape.id;
    stream.trace.messages = true;
  }
  const std::int64_t max_tokens = draw_lengths(stream, chat, request_seed);
  if (refused(connection, stream, plan, max_tokens)) return;
  accept_stream(connection, std::move(stream), id, plan, body, chat);
}

// The model sees the request at `at_ns`: its arrival, or its arrival plus its jitter.
void SimServer::Impl::admit_to_model(StreamId id, std::int64_t at_ns) {
  const Stream& stream = streams.at(id);
  model->admit(id, stream.request.prompt_tokens, stream.target_tokens, at_ns);
  if (stream.cached_prompt_tokens > 0) model->skip_prefill(id, stream.cached_prompt_tokens);
}

// A jitter's time is up: the request reaches the model, as of when it was due (so a late loop
// adds nothing to the drawn wait). A stream that ended meanwhile (client closed) is skipped.
void SimServer::Impl::end_jitters(std::int64_t now) {
  while (!jitters.empty() && jitters.top().first <= now) {
    const auto [due, id] = jitters.top();
    jitters.pop();
    if (streams.count(id) != 0) admit_to_model(id, due);
  }
}

void SimServer::Impl::refuse_completion(Connection& connection, Stream& stream, int status,
                                        const std::string& message) {
  send_error(connection, status, message, stream.keep_alive);
  stream.trace.http_status = status;
  stream.trace.outcome = fmt::format("http_{}", status);
  stream.trace.end_ns = now_ns();
  trace.write(stream.trace);
  served.fetch_add(1);
}

void SimServer::Impl::on_step(StreamId id, const StepFacts& facts) {
  const auto found = streams.find(id);
  if (found == streams.end()) return;
  Stream& stream = found->second;
  if (facts.prefill_tokens > 0 && stream.trace.prefill_start_ns < 0) {
    stream.trace.prefill_start_ns = facts.start_ns;
  }
  if (facts.prefill_done) stream.trace.prefill_end_ns = facts.end_ns;
  stream.batch_size = facts.batch_size;
}

bool SimServer::Impl::on_tokens(StreamId id, std::int64_t tokens) {
  const auto found = streams.find(id);
  if (found == streams.end()) return false;
  Stream& stream = found->second;
  Connection* connection = connection_at(stream.fd);
  if (connection == nullptr) return false;
  if (!stream.renderer) return on_whole_response(stream, *connection, id, tokens);

  const StreamRenderer::Step step = stream.renderer->on_tokens(tokens, connection->out);
  if (step.text_chunk) {
    stream.trace.chunk_tokens.push_back(step.chunk_tokens);
    stream.trace.chunk_ns.push_back(0);  // stamped when written
    if (step.answer_chunk && stream.trace.first_answer_chunk < 0) {
      stream.trace.first_answer_chunk = static_cast<std::int64_t>(stream.trace.chunk_ns.size()) - 1;
    }
    if (stream.batch_size > 0) stream.trace.chunk_batch.push_back(stream.batch_size);
    ++connection->unstamped_chunks;
    mark_dirty(*connection);
  }
  switch (step.next) {
    case StreamRenderer::Next::finished: finish_stream(*connection, id, step.outcome); return true;
    case StreamRenderer::Next::reset:
      connection->reset_after_write = true;
      connection->close_after_write = true;
      finish_stream(*connection, id, step.outcome);
      return true;
    case StreamRenderer::Next::stall:
      stream.held = true;
      stream.stall_until_ns = now_ns() + std::max<std::int64_t>(1, stream.stall_ns);
      stalls.emplace(stream.stall_until_ns, id);
      return false;
    case StreamRenderer::Next::more: break;
  }
  if (connection->unsent() > kHighWatermarkBytes) {
    stream.held = true;
    return false;
  }
  return true;
}

// A non-streamed request: its tokens are counted as the model makes them, and the whole answer
// goes out in one JSON body with the last (whole_response.hpp), when its stream would have ended.
bool SimServer::Impl::on_whole_response(Stream& stream, Connection& connection, StreamId id,
                                        std::int64_t tokens) {
  stream.sent_tokens = std::min(stream.sent_tokens + tokens, stream.target_tokens);
  if (stream.sent_tokens < stream.target_tokens) return true;
  WholeAnswer answer;
  answer.shape = stream.shape;
  answer.words = generated_text(options, stream.request, id, stream.reasoning_tokens);
  answer.tokens = stream.sent_tokens;
  answer.reasoning_tokens = stream.reasoning_tokens;
  answer.tool_name = stream.trace.tool_name;
  answer.stopped_by_length = stream.stopped_by_length;
  answer.prompt_tokens = stream.request.prompt_tokens;
  answer.cached_prompt_tokens = stream.cached_prompt_tokens;
  const WholeBody body = whole_response_body(answer);
  stream.trace.reply_hash = body.answer_hash;
  send_simple(connection, 200, "application/json", body.json, stream.keep_alive);
  finish_stream(connection, id, "ok");
  return true;
}

// A stall's time is up: the stream goes on, once its connection has drained.
void SimServer::Impl::end_stalls(std::int64_t now) {
  while (!stalls.empty() && stalls.top().first <= now) {
    const auto [until, id] = stalls.top();
    stalls.pop();
    const auto found = streams.find(id);
    if (found == streams.end() || found->second.stall_until_ns != until) continue;
    Stream& stream = found->second;
    stream.stall_until_ns = 0;
    const Connection* connection = connection_at(stream.fd);
    if (connection != nullptr && connection->unsent() == 0) {
      stream.held = false;
      model->resume(id, now);
    }
  }
}

// The stream's bytes are all in the connection's buffer: its trace waits there for the write
// that stamps it, and once that write is done the connection takes its next request.
void SimServer::Impl::finish_stream(Connection& connection, StreamId id, std::string_view outcome) {
  const auto found = streams.find(id);
  Stream& stream = found->second;
  stream.trace.completion_tokens =
      stream.renderer ? stream.renderer->sent_tokens() : stream.sent_tokens;
  if (stream.renderer) stream.trace.reply_hash = stream.renderer->answer_hash();
  stream.trace.outcome = outcome;
  count_ended(stream);
  connection.finished_trace = std::make_unique<TraceRecord>(std::move(stream.trace));
  if (stream.renderer ? stream.renderer->closes_connection() : !stream.keep_alive) {
    connection.close_after_write = true;
  }
  connection.stream = 0;
  model->remove(id);
  streams.erase(found);
  served.fetch_add(1);
}

}  // namespace bench::sim
