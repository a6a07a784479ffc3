// A request's times under one tool's rules, from what the log holds: the token-carrying
// chunks' arrivals, the first and last chunk with a choice, the end of the stream.
#include "request_times.hpp"

namespace bench::peer_view {

namespace {

using results::LoggedRequest;

std::optional<double> first_token(FirstToken rule, const LoggedRequest& r) {
  switch (rule) {
    case FirstToken::choice_chunk: return r.first_choice_ms;
    case FirstToken::token_chunk:
    case FirstToken::text_chunk:
      if (r.chunk_arrival_ms.empty()) return std::nullopt;
      return r.chunk_arrival_ms.front();
  }
  return std::nullopt;
}

std::optional<double> end_at(EndsAt rule, const LoggedRequest& r) {
  switch (rule) {
    case EndsAt::end_of_stream: return r.e2e_ms;
    case EndsAt::last_choice: return r.last_choice_ms;
    case EndsAt::last_token:
      if (r.chunk_arrival_ms.empty()) return std::nullopt;
      return r.chunk_arrival_ms.back();
  }
  return std::nullopt;
}

std::vector<double> gaps_between(const std::vector<double>& times) {
  std::vector<double> gaps;
  for (std::size_t i = 1; i < times.size(); ++i) gaps.push_back(times[i] - times[i - 1]);
  return gaps;
}

// The chunks with a choice are the token chunks, plus a role-only one before them and a
// finish-only one after them where the counts say so: choice_chunks - token chunks of them. One
// that arrived in the same read as its neighbour token has its time (a gap of 0, which vLLM's
// client pools too: it stamps each message of a read apart, microseconds apart). Any further
// chunk with a choice and no token fell between two tokens, where the log keeps no time for it:
// `exact` says so.
std::vector<double> choice_chunk_times(const LoggedRequest& r, bool& exact) {
  const auto& tokens = r.chunk_arrival_ms;
  const std::int64_t choices = r.choice_chunks.value_or(0);
  if (tokens.empty()) {  // only chunks without tokens: the first and the last are known
    std::vector<double> times;
    if (r.first_choice_ms) times.push_back(*r.first_choice_ms);
    if (choices >= 2 && r.last_choice_ms) times.push_back(*r.last_choice_ms);
    exact = choices <= 2;
    return times;
  }
  std::int64_t extra = choices - static_cast<std::int64_t>(tokens.size());
  const double first = r.first_choice_ms.value_or(tokens.front());
  const double last = r.last_choice_ms.value_or(tokens.back());
  // Strictly before or after the tokens first; then one read with a token, at either end.
  bool role = extra > 0 && first < tokens.front();
  if (role) --extra;
  bool finish = extra > 0 && last > tokens.back();
  if (finish) --extra;
  if (!role && extra > 0 && first == tokens.front()) {
    role = true;
    --extra;
  }
  if (!finish && extra > 0 && last == tokens.back()) {
    finish = true;
    --extra;
  }
  std::vector<double> times;
  if (role) times.push_back(first);
  times.insert(times.end(), tokens.begin(), tokens.end());
  if (finish) times.push_back(last);
  exact = extra == 0;
  return times;
}

}  // namespace

std::int64_t output_tokens(OutputCount rule, const LoggedRequest& r) {
  const bool usage = r.completion_token_source == "usage" && r.completion_tokens;
  if (usage) return *r.completion_tokens;
  switch (rule) {
    case OutputCount::usage: return r.completion_tokens.value_or(0);
    case OutputCount::usage_else_requested: return r.requested_output_len.value_or(0);
    case OutputCount::usage_else_chunks:
      return static_cast<std::int64_t>(r.chunk_arrival_ms.size());
  }
  return 0;
}

std::optional<RequestTimes> request_times(const ToolRules& tool, const LoggedRequest& r) {
  const bool needs_choices = tool.first_token == FirstToken::choice_chunk ||
                             tool.e2e_ends == EndsAt::last_choice ||
                             tool.chunk_gaps == ChunkGaps::choice_chunks;
  if (needs_choices && !r.choice_chunks) return std::nullopt;
  RequestTimes times;
  times.output_tokens = output_tokens(tool.output, r);
  times.ttft = first_token(tool.first_token, r);
  times.e2e = end_at(tool.e2e_ends, r);
  switch (tool.chunk_gaps) {
    case ChunkGaps::none: break;
    case ChunkGaps::token_chunks: times.chunk_gaps = gaps_between(r.chunk_arrival_ms); break;
    case ChunkGaps::choice_chunks:
      times.chunk_gaps = gaps_between(choice_chunk_times(r, times.gaps_exact));
      break;
  }
  // The per-token time starts where the tool's TTFT ends.
  const std::optional<double> per_token_end = end_at(tool.per_token_ends, r);
  if (times.ttft && per_token_end && times.output_tokens > 1) {
    times.per_token = (*per_token_end - *times.ttft) / static_cast<double>(times.output_tokens - 1);
  }
  if (tool.tpot_from_start && !r.chunk_arrival_ms.empty() && times.output_tokens > 0) {
    times.tpot_from_start = r.chunk_arrival_ms.back() / static_cast<double>(times.output_tokens);
  }
  return times;
}

}  // namespace bench::peer_view
