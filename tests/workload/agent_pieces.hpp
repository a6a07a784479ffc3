#pragma once
// For the tests of agent requests in a real tokenizer's tokens: a made-up session of 64-token
// blocks whose requests have every turn a real one has (a system head, user turns, replies,
// tails of 1 to 63 tokens, a request that diverges), and where each piece of a sent message
// ends, read back from its text (agent_block_text.hpp: a piece begins with "k" then its key's
// digits, or "k" alone, at the message's start or after a space; no word of the list begins
// with "k" and a digit or stands as "k" alone).
#include <cctype>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "bench/workload/agent_history.hpp"
#include "bench/workload/agent_trace.hpp"

namespace bench::testing {

inline workload::AgentRequest made_up_request(std::int64_t in, std::int64_t out,
                                              std::vector<std::int64_t> ids) {
  workload::AgentRequest request;
  request.input_len = in;
  request.output_len = out;
  request.hash_ids = std::move(ids);
  return request;
}

inline std::vector<std::int64_t> ids_from(std::int64_t first, std::int64_t count) {
  std::vector<std::int64_t> ids(static_cast<std::size_t>(count));
  std::iota(ids.begin(), ids.end(), first);
  return ids;
}

/// A root agent of 150 head tokens (2 whole blocks: the system message) and six requests:
/// each of the first five extends the one before (its reply, then a user turn), the last
/// diverges after block 4; tails of 17, 47, 44, 1, 0 and 60 tokens.
inline workload::AgentTrace made_up_session() {
  workload::AgentTrace trace;
  trace.id = "made-up";
  trace.block_size = 64;
  trace.root.agent_id = "root";
  trace.root.head_tokens = 150;
  auto& requests = trace.root.requests;
  requests.push_back(made_up_request(401, 200, ids_from(1, 6)));   // 6 blocks + 17
  requests.push_back(made_up_request(751, 40, ids_from(1, 11)));   // a 3-block reply; + 47
  requests.push_back(made_up_request(1004, 10, ids_from(1, 15)));  // + 44
  requests.push_back(made_up_request(961, 3, ids_from(1, 15)));    // + 1
  requests.push_back(made_up_request(1024, 7, ids_from(1, 16)));   // no tail
  std::vector<std::int64_t> diverged = ids_from(1, 4);
  for (const std::int64_t id : ids_from(500, 7)) diverged.push_back(id);
  requests.push_back(made_up_request(764, 5, diverged));  // 11 blocks + 60
  return trace;
}

/// Where each piece of `message` ends (the byte after its last), in order.
inline std::vector<std::size_t> piece_ends(const std::string& message) {
  std::vector<std::size_t> starts;
  for (std::size_t at = 0; at < message.size(); ++at) {
    if (message[at] != 'k' || (at > 0 && message[at - 1] != ' ')) continue;
    const bool marker = at + 1 == message.size() || message[at + 1] == ' ' ||
                        std::isdigit(static_cast<unsigned char>(message[at + 1])) != 0;
    if (marker) starts.push_back(at);
  }
  std::vector<std::size_t> ends;
  for (std::size_t i = 1; i < starts.size(); ++i) ends.push_back(starts[i] - 1);  // the space
  if (!starts.empty()) ends.push_back(message.size());
  return ends;
}

/// Each piece's length in tokens, in order: block_size for each block, then the tail.
inline std::vector<std::int64_t> piece_lengths(const workload::AgentRequest& request,
                                               std::int64_t block_size) {
  std::vector<std::int64_t> lengths(request.hash_ids.size(), block_size);
  if (request.input_len % block_size > 0) lengths.push_back(request.input_len % block_size);
  return lengths;
}

}  // namespace bench::testing
