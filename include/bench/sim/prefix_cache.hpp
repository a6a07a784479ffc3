#pragma once
// The embedded server's prefix cache, after vLLM's automatic prefix caching
// (vllm/v1/core/kv_cache_utils.py, block_pool.py; SGLang's radix cache behaves alike for
// whole-block prefixes): a prompt is cut into blocks of kPrefixBlockTokens tokens, and each full
// block is known by a hash of the whole prompt up to its end, so a block matches only when
// everything before it matches too. The cache keeps block hashes in least-recently-used order,
// up to a capacity in blocks (the engine's KV budget / the block size, as vLLM's block pool
// spans the whole KV cache), and evicts the least recently used when full.
//
// Simplifications, said here once: blocks enter the cache when their request is admitted
// (vLLM V1 caches a request's full blocks as it schedules them, a step later at most), and
// blocks held by running requests do not shrink the capacity.
#include <cstdint>
#include <list>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench::sim {

inline constexpr std::int64_t kPrefixBlockTokens = 16;  // vLLM's default --block-size

/// Hashes of a prompt's prefixes at every block boundary, fed token by token (the simulator's
/// tokens are words, completion_request.hpp). FNV-1a, 64 bits, over each token's bytes.
class PrefixHasher {
 public:
  void add_word(std::string_view word);  // one token
  void add_token_id(std::int64_t id);    // one token given as an id
  /// Mixes in something that is not a token but tells prompts apart (a chat message's role).
  void add_marker(std::string_view marker);
  /// The words of `text`, split at whitespace as the word rule does.
  void add_text(std::string_view text);
  /// An image of `tokens` tokens whose bytes hash to `bytes_hash`, in its place in the prompt:
  /// vLLM fills an image's place with placeholder tokens and keys every block holding one by
  /// the image's hash (vllm/v1/core/kv_cache_utils.py, generate_block_hash_extra_keys), so a
  /// block that holds any of it, and every block after, matches only for the same image.
  void add_image(std::uint64_t bytes_hash, std::int64_t tokens);
  const std::vector<std::uint64_t>& block_hashes() const { return block_hashes_; }

 private:
  void mix(std::string_view bytes);
  void end_token();

  std::uint64_t hash_ = 0xcbf29ce484222325ULL;  // FNV-1a offset basis
  std::int64_t tokens_ = 0;
  std::vector<std::uint64_t> block_hashes_;
};

/// The block hashes of the prompt of a completion (chat: `messages`) request body; empty when
/// the body has none the server would accept. A chat message's images count in their place,
/// with their tokens by the patch rule of `image_patch_px` (image_tokens.hpp).
std::vector<std::uint64_t> prompt_block_hashes(std::string_view body, bool chat,
                                               std::int64_t image_patch_px);

class PrefixCache {
 public:
  explicit PrefixCache(std::int64_t capacity_blocks);

  /// A prompt of `prompt_tokens` tokens arrives: returns how many of its leading tokens the
  /// cache holds (whole blocks, and never the last prompt token, which vLLM always computes for
  /// its logits: vllm/v1/core/kv_cache_manager.py), marks those blocks most recently used, and
  /// adds the prompt's other full blocks, evicting the least recently used ones.
  std::int64_t admit(std::span<const std::uint64_t> block_hashes, std::int64_t prompt_tokens);
  /// Empties the cache (SGLang's POST /flush_cache, vLLM's POST /reset_prefix_cache).
  void flush();

  std::int64_t cached_blocks() const { return static_cast<std::int64_t>(lru_.size()); }
  std::int64_t capacity_blocks() const { return capacity_blocks_; }
  bool contains(std::uint64_t block_hash) const { return index_.contains(block_hash); }

 private:
  void touch(std::list<std::uint64_t>::iterator block);
  void insert(std::uint64_t block_hash);

  std::int64_t capacity_blocks_;
  std::list<std::uint64_t> lru_;  // most recently used first
  std::unordered_map<std::uint64_t, std::list<std::uint64_t>::iterator> index_;
};

}  // namespace bench::sim
