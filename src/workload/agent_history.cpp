#include "bench/workload/agent_history.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "bench/util/splitmix64.hpp"
#include "random_text.hpp"

namespace bench::workload {
namespace {

constexpr std::uint64_t kBlockTextStream = 0x6167656e74ULL;  // "agent"
constexpr std::uint64_t kTailTextStream = 0x7461696cULL;     // "tail"
constexpr std::uint64_t kHeadKeyBit = 1ULL << 63;            // a head block's key has it

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  return util::splitmix64_mix(a ^ util::splitmix64_mix(b + util::kGoldenGamma));
}

// Head blocks are the same for every replay of an agent with this head; the others are the
// replay's own. Keys stay below 2^63 but for the head bit, so the number that starts a block's
// text tells the two apart.
std::uint64_t block_key(const AgentReplayText& text, std::int64_t head_blocks,
                        std::int64_t head_tokens, std::size_t index, std::int64_t id) {
  if (static_cast<std::int64_t>(index) < head_blocks) {
    return (mix(static_cast<std::uint64_t>(head_tokens), index) >> 1) | kHeadKeyBit;
  }
  return mix(mix(text.replay, 0x68617368ULL), static_cast<std::uint64_t>(id)) >> 1;
}

// The first block at or after token `position`.
std::size_t piece_at(std::int64_t position, std::int64_t block_size) {
  return static_cast<std::size_t>((position + block_size - 1) / block_size);
}

std::size_t common_ids(const AgentRequest& a, const AgentRequest& b) {
  const auto end =
      std::mismatch(a.hash_ids.begin(), a.hash_ids.end(), b.hash_ids.begin(), b.hash_ids.end());
  return static_cast<std::size_t>(end.first - a.hash_ids.begin());
}

// Sorted by piece, a later start at the same piece replacing an earlier one, and a turn of the
// role before it merged into it; turns past the prompt's last piece dropped.
std::vector<TurnStart> tidy(std::vector<TurnStart> turns, std::size_t pieces) {
  std::stable_sort(turns.begin(), turns.end(),
                   [](const TurnStart& a, const TurnStart& b) { return a.piece < b.piece; });
  std::vector<TurnStart> out;
  for (const TurnStart& turn : turns) {
    if (turn.piece >= pieces) break;
    if (!out.empty() && out.back().piece == turn.piece) out.pop_back();
    if (!out.empty() && out.back().role == turn.role) continue;
    out.push_back(turn);
  }
  return out;
}

std::size_t pieces_of(const AgentRequest& request, std::int64_t block_size) {
  return request.hash_ids.size() + (request.input_len % block_size > 0 ? 1 : 0);
}

}  // namespace

std::vector<std::vector<TurnStart>> agent_turns(const AgentScript& agent, std::int64_t block_size) {
  using Role = TurnStart::Role;
  std::vector<std::vector<TurnStart>> all;
  all.reserve(agent.requests.size());
  const std::size_t head_end = piece_at(agent.head_tokens, block_size);
  for (std::size_t k = 0; k < agent.requests.size(); ++k) {
    const AgentRequest& request = agent.requests[k];
    std::vector<TurnStart> turns;
    if (head_end > 0) turns.push_back({0, Role::system});
    turns.push_back({head_end, Role::user});
    const std::size_t shared = k == 0 ? 0 : common_ids(request, agent.requests[k - 1]);
    if (shared > 0) {
      // The previous prompt's turns inside the shared blocks, then its reply and what came after.
      turns.clear();
      for (const TurnStart& turn : all[k - 1]) {
        if (turn.piece < shared) turns.push_back(turn);
      }
      const AgentRequest& before = agent.requests[k - 1];
      turns.push_back({piece_at(before.input_len, block_size), Role::assistant});
      turns.push_back({piece_at(before.input_len + before.output_len, block_size), Role::user});
    }
    all.push_back(tidy(std::move(turns), pieces_of(request, block_size)));
  }
  return all;
}

namespace {

// What a request's pieces are drawn from, and where each piece's text comes from.
class PieceMaker {
 public:
  PieceMaker(const AgentTrace& trace, const AgentScript& script, const AgentRequest& recorded,
             std::uint64_t tail_key, const AgentReplayText& text)
      : recorded_(recorded),
        text_(text),
        block_size_(trace.block_size),
        block_seed_(detail::stream_seed(text.seed ^ kBlockTextStream, text.stream)),
        tail_seed_(detail::stream_seed(text.seed ^ kTailTextStream, text.stream)),
        tail_key_(tail_key) {
    keys_.reserve(recorded.hash_ids.size());
    const std::int64_t head_blocks = script.head_tokens / block_size_;
    for (std::size_t i = 0; i < recorded.hash_ids.size(); ++i) {
      keys_.push_back(block_key(text, head_blocks, script.head_tokens, i, recorded.hash_ids[i]));
    }
  }

  std::size_t pieces() const { return pieces_of(recorded_, block_size_); }
  std::vector<std::uint64_t> take_keys() { return std::move(keys_); }

  // Piece `p` appended to `out`: a block (kept with a tokenizer), or the tail.
  void append(std::size_t p, std::string& out) const {
    const tokenizer::Tokenizer* tokenizer = text_.tokens.tokenizer;
    if (p >= keys_.size()) {
      out += agent_piece_text(tail_seed_, tail_key_, recorded_.input_len % block_size_, tokenizer);
    } else if (tokenizer != nullptr && text_.kept != nullptr) {
      out += text_.kept->blocks.text(block_seed_, keys_[p], block_size_, tokenizer);
    } else {
      out += agent_piece_text(block_seed_, keys_[p], block_size_, tokenizer);
    }
  }

 private:
  const AgentRequest& recorded_;
  const AgentReplayText& text_;
  std::int64_t block_size_;
  std::uint64_t block_seed_;
  std::uint64_t tail_seed_;
  std::uint64_t tail_key_;
  std::vector<std::uint64_t> keys_;  // each block's
};

// The tokenizer's count of `message` added to `counted`, which stays -1 once it fails.
void count_into(std::int64_t& counted, const std::string& message,
                const tokenizer::Tokenizer& tokenizer, ResentText* kept) {
  if (counted < 0) return;
  try {
    counted += kept != nullptr ? kept->counts.count(message, tokenizer)
                               : static_cast<std::int64_t>(tokenizer.count(message));
  } catch (const tokenizer::TokenizerError&) {
    counted = -1;
  }
}

}  // namespace

AgentPrompt agent_prompt(const AgentTrace& trace, std::size_t agent, std::size_t request,
                         const std::vector<TurnStart>& turns, const AgentReplayText& text) {
  const AgentScript& script = agent == 0 ? trace.root : trace.children[agent - 1].script;
  const AgentRequest& recorded = script.requests[request];
  PieceMaker maker(trace, script, recorded, mix(mix(text.replay, agent), request) >> 1, text);
  const tokenizer::Tokenizer* tokenizer = text.tokens.tokenizer;
  AgentPrompt prompt;
  prompt.input_len = recorded.input_len;
  std::int64_t counted = 0;
  for (std::size_t t = 0; t < turns.size(); ++t) {
    const std::size_t end = t + 1 < turns.size() ? turns[t + 1].piece : maker.pieces();
    std::string message;
    // In words a reply begins with a space, which keeps its first word apart from the user's
    // last in the completions transcript (the reply follows the user's text). With a tokenizer
    // it does not: Llama-2's (SentencePiece's prepended "▁") counts a message that begins with a
    // space one token more alone than any template makes of it.
    const bool leading_space = turns[t].role == TurnStart::Role::assistant && tokenizer == nullptr;
    for (std::size_t p = turns[t].piece; p < end; ++p) {
      if (!message.empty() || leading_space) message += ' ';
      maker.append(p, message);
    }
    if (tokenizer != nullptr) count_into(counted, message, *tokenizer, text.kept);
    switch (turns[t].role) {
      case TurnStart::Role::system: prompt.history.add_system(std::move(message)); break;
      case TurnStart::Role::user: prompt.history.add_user(std::move(message)); break;
      case TurnStart::Role::assistant: prompt.history.add_reply(std::move(message)); break;
    }
  }
  if (tokenizer != nullptr) prompt.client_tokens = counted;
  prompt.block_keys = maker.take_keys();
  return prompt;
}

std::int64_t BlockCeiling::admit(const std::vector<std::uint64_t>& block_keys,
                                 std::int64_t block_size, Prefixes& replay) {
  std::uint64_t prefix = 0;
  bool matching = true;
  bool all_head = true;
  std::int64_t shared = 0;
  for (const std::uint64_t key : block_keys) {
    prefix = mix(prefix, key);
    all_head = all_head && (key & kHeadKeyBit) != 0;
    Prefixes& set = all_head ? heads_ : replay;
    if (matching && set.contains(prefix)) {
      ++shared;
    } else {
      matching = false;
      set.insert(prefix);
    }
  }
  return shared * block_size;
}

}  // namespace bench::workload
