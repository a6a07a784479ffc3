#pragma once
// The text of a recorded agent request (agent_trace.hpp), made when it is sent. Its prompt is its
// blocks in order, then its own tail (in mod block_size tokens):
//   - a block's text depends only on the seed, the prompt stream and its key: the blocks of the
//     agent's head (its first floor(head / block_size), "tool_tokens" + "system_tokens") are
//     keyed by the head's size and place, so every replay of every agent with that head shares
//     them, as Claude Code's sessions share their system prompt; every other block by its hash
//     id and the replay (the session tree's index in the run), so a block id is always the same
//     bytes within a replay and two replays of one trace share nothing past the head. Each
//     block's first word is "k" and a number made of its key: a block never matches another's
//     start. The replay's number inside that word is AIPerf's "[rid:...]" per-session marker,
//     counted in the block's length like any other word.
//   - the tail's text is the request's own.
// Words are tokens without a tokenizer; with one each block and tail is exactly its length in
// tokens where it stands in its message, and a message exactly its pieces' tokens
// (agent_block_text.hpp says why), so the request is its recorded "in" in content tokens; a
// chat template adds its own between the messages.
//
// The prompt is sent as a chat history: a system message (the head), then user and assistant
// turns where the recording had them: when a request's blocks begin with all of the previous
// request's, the previous prompt's end starts an assistant turn (the recorded reply, out tokens)
// and its end the next user turn (a tool's result or the user's words). Turns begin at block
// starts (the first block at or after the recorded place), so a block is never split between
// two messages, and the turns inside a shared prefix are the same in both requests: a server's
// cache sees the same tokens and the same roles up to where the blocks diverge.
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "bench/workload/agent_block_text.hpp"
#include "bench/workload/agent_trace.hpp"
#include "bench/workload/conversation.hpp"
#include "bench/workload/message_counts.hpp"
#include "bench/workload/token_prompts.hpp"

namespace bench::workload {

/// Where a request's turns begin, in pieces (block i is piece i, the tail is piece
/// hash_ids.size()), and whose they are.
struct TurnStart {
  enum class Role { system, user, assistant };
  std::size_t piece = 0;
  Role role = Role::user;
  bool operator==(const TurnStart&) const = default;
};

/// The turns of every request of `agent` (index = request), as the paragraph above decides.
std::vector<std::vector<TurnStart>> agent_turns(const AgentScript& agent, std::int64_t block_size);

/// What a scheduler keeps of the text its replays resend, with a tokenizer: the blocks made to
/// its lengths, and each message's count. Words cost a few draws a block and are not kept.
struct ResentText {
  BlockTexts blocks;
  MessageCounts counts;
};

/// What a replay's text is drawn from.
struct AgentReplayText {
  std::uint64_t seed = 0;
  std::uint64_t stream = 0;    // the point's prompt stream
  std::uint64_t replay = 0;    // the session tree's index in the run
  TokenLengths tokens;         // a tokenizer: lengths in tokens; none: words
  ResentText* kept = nullptr;  // null: every block made and every message counted again
};

/// One request as sent.
struct AgentPrompt {
  Conversation history;
  std::int64_t input_len = 0;             // the recorded "in"
  std::int64_t client_tokens = -1;        // the run's tokenizer's count of what is sent; -1: none
  std::vector<std::uint64_t> block_keys;  // each block's key, in order (the ceiling's input)
};

/// Request `request` of `agent` (0 = the root, k = children[k - 1]) of `trace`, with its turns.
AgentPrompt agent_prompt(const AgentTrace& trace, std::size_t agent, std::size_t request,
                         const std::vector<TurnStart>& turns, const AgentReplayText& text);

/// The prefix-cache ceiling of a replay: the leading blocks of each prompt that an earlier
/// prompt of the same replay (or any replay's head) sent, which a server with an unbounded cache
/// of whole blocks can hit and no more. Fed in send order; one per scheduler, its replays'
/// own prefixes kept by each replay (and dropped with it).
class BlockCeiling {
 public:
  using Prefixes = std::unordered_set<std::uint64_t>;  // chained hashes of the prefixes sent
  /// Tokens of this prompt's prefix sent before (whole blocks of `block_size`), then remembers
  /// its blocks: the head's here, the rest in `replay`.
  std::int64_t admit(const std::vector<std::uint64_t>& block_keys, std::int64_t block_size,
                     Prefixes& replay);

 private:
  Prefixes heads_;
};

}  // namespace bench::workload
