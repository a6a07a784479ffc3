#include "bench/tokenizer/bpe_model.hpp"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "bench/tokenizer/utf8.hpp"
#include "bench/util/utf8.hpp"

namespace bench::tokenizer {
namespace {

std::uint64_t pair_key(TokenId left, TokenId right) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) |
         static_cast<std::uint32_t>(right);
}

// A queued merge: the pair starting at symbol `position`, which makes `id`.
struct Candidate {
  std::uint32_t rank;
  std::int32_t position;
  TokenId id;
  // std::priority_queue is a max-heap: "greater" is the lower rank, then the leftmost.
  bool operator<(const Candidate& other) const {
    return rank != other.rank ? rank > other.rank : position > other.position;
  }
};

constexpr std::string_view kMarker = "\xE2\x96\x81";  // U+2581 "▁", SentencePiece's space

// The character that ends just before byte `end` of `text`.
std::string_view character_before(std::string_view text, std::size_t end) {
  std::size_t begin = end - 1;
  while (begin > 0 && (static_cast<unsigned char>(text[begin]) & 0xC0) == 0x80) --begin;
  return text.substr(begin, end - begin);
}

std::pair<std::string, std::string> merge_parts(const nlohmann::json& merge) {
  if (merge.is_array() && merge.size() == 2) {
    return {merge[0].get<std::string>(), merge[1].get<std::string>()};
  }
  const auto text = merge.get<std::string>();
  const auto space = text.find(' ');
  if (space == std::string::npos || text.find(' ', space + 1) != std::string::npos) {
    throw TokenizerError("a merge is not two tokens separated by one space: '" + text + "'");
  }
  return {text.substr(0, space), text.substr(space + 1)};
}

}  // namespace

BpeModel::BpeModel(const nlohmann::json& config) {
  if (!config.value("dropout", nlohmann::json()).is_null() &&
      config.at("dropout").get<double>() > 0) {
    throw TokenizerError("unsupported BPE option 'dropout'");
  }
  for (const char* option : {"continuing_subword_prefix", "end_of_word_suffix"}) {
    const auto value = config.value(option, nlohmann::json());
    if (!value.is_null() && !value.get<std::string>().empty()) {
      throw TokenizerError(std::string("unsupported BPE option '") + option + "'");
    }
  }
  for (const auto& [token, id] : config.at("vocab").items()) {
    vocabulary_.emplace(token, id.get<TokenId>());
  }
  read_merges(config.at("merges"));
  byte_tokens_.fill(-1);
  for (int byte = 0; byte < 256; ++byte) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", byte);
    if (auto it = vocabulary_.find(std::string_view(name)); it != vocabulary_.end()) {
      byte_tokens_[static_cast<std::size_t>(byte)] = it->second;
    }
  }
  const auto unk = config.value("unk_token", nlohmann::json());
  if (!unk.is_null()) {
    auto it = vocabulary_.find(unk.get<std::string>());
    if (it == vocabulary_.end()) {
      throw TokenizerError("the unk_token '" + unk.get<std::string>() + "' is not in the vocab");
    }
    unk_id_ = it->second;
  }
  fuse_unk_ = config.value("fuse_unk", false);
  byte_fallback_ = config.value("byte_fallback", false);
  ignore_merges_ = config.value("ignore_merges", false);
  find_marker_joins();
}

void BpeModel::find_marker_joins() {
  for (const auto& [token, id] : vocabulary_) {
    for (std::size_t at = token.find(kMarker, 1); at != std::string::npos;
         at = token.find(kMarker, at + 1)) {
      const std::string_view before = character_before(token, at);
      if (before != kMarker) joins_marker_.emplace(before);
    }
  }
}

void BpeModel::read_merges(const nlohmann::json& merges) {
  merges_.reserve(merges.size());
  std::uint32_t rank = 0;
  for (const auto& merge : merges) {
    const auto [left, right] = merge_parts(merge);
    const auto left_id = vocabulary_.find(left);
    const auto right_id = vocabulary_.find(right);
    const auto merged_id = vocabulary_.find(left + right);
    if (left_id == vocabulary_.end() || right_id == vocabulary_.end() ||
        merged_id == vocabulary_.end()) {
      throw TokenizerError("the merge '" + left + " " + right + "' names a token not in the vocab");
    }
    // A repeated pair keeps its last rank, as model.rs's collect() into a HashMap does.
    merges_.insert_or_assign(pair_key(left_id->second, right_id->second),
                             MergeTarget{rank++, merged_id->second});
  }
}

std::optional<BpeModel::MergeTarget> BpeModel::merge_of(TokenId left, TokenId right) const {
  auto it = merges_.find(pair_key(left, right));
  if (it == merges_.end()) return std::nullopt;
  return it->second;
}

// word.rs's start: one symbol per character; a character outside the vocabulary becomes its
// bytes' "<0xNN>" tokens (byte_fallback), else the unknown token (consecutive ones fused when
// fuse_unk), else nothing.
void BpeModel::initial_symbols(std::string_view piece, std::vector<Symbol>& symbols) const {
  bool previous_unknown = false;
  const auto add = [&symbols](TokenId id) {
    const auto index = static_cast<std::int32_t>(symbols.size());
    symbols.push_back({id, index - 1, index + 1, true});
  };
  for (std::size_t at = 0; at < piece.size();) {
    std::size_t length = util::utf8_sequence_length(piece, at);
    if (length == 0) length = 1;
    const std::string_view character = piece.substr(at, length);
    at += length;
    if (auto it = vocabulary_.find(character); it != vocabulary_.end()) {
      add(it->second);
      previous_unknown = false;
      continue;
    }
    if (byte_fallback_ && std::all_of(character.begin(), character.end(), [this](char byte) {
          return byte_tokens_[static_cast<std::uint8_t>(byte)] >= 0;
        })) {
      for (char byte : character) add(byte_tokens_[static_cast<std::uint8_t>(byte)]);
      previous_unknown = false;
      continue;
    }
    if (unk_id_ && !(fuse_unk_ && previous_unknown)) add(*unk_id_);
    previous_unknown = unk_id_.has_value();
  }
  if (!symbols.empty()) symbols.back().next = -1;
}

// word.rs's merge_all: a queue of candidate pairs by rank; a popped pair whose symbols have
// changed since it was queued is stale and skipped.
void BpeModel::merge(std::vector<Symbol>& symbols) const {
  std::vector<Candidate> queue;
  queue.reserve(symbols.size());
  for (std::size_t at = 0; at + 1 < symbols.size(); ++at) {
    if (auto target = merge_of(symbols[at].id, symbols[at + 1].id)) {
      queue.push_back({target->rank, static_cast<std::int32_t>(at), target->id});
    }
  }
  std::make_heap(queue.begin(), queue.end());
  const auto push = [&queue](Candidate candidate) {
    queue.push_back(candidate);
    std::push_heap(queue.begin(), queue.end());
  };
  while (!queue.empty()) {
    std::pop_heap(queue.begin(), queue.end());
    const Candidate top = queue.back();
    queue.pop_back();
    Symbol& left = symbols[static_cast<std::size_t>(top.position)];
    if (!left.alive || left.next < 0) continue;
    Symbol& right = symbols[static_cast<std::size_t>(left.next)];
    const auto target = merge_of(left.id, right.id);
    if (!target || target->id != top.id) continue;
    left.id = top.id;
    right.alive = false;
    left.next = right.next;
    if (right.next >= 0) symbols[static_cast<std::size_t>(right.next)].previous = top.position;
    if (left.previous >= 0) {
      if (auto made = merge_of(symbols[static_cast<std::size_t>(left.previous)].id, left.id)) {
        push({made->rank, left.previous, made->id});
      }
    }
    if (left.next >= 0) {
      if (auto made = merge_of(left.id, symbols[static_cast<std::size_t>(left.next)].id)) {
        push({made->rank, top.position, made->id});
      }
    }
  }
}

void BpeModel::encode_piece(std::string_view piece, std::vector<TokenId>& ids) const {
  if (piece.empty()) return;
  if (ignore_merges_) {
    // model.rs: a piece that is a token is that token, merges or not. The piece is not cut
    // into words here: a word could be a token where the whole piece merges otherwise.
    if (auto it = vocabulary_.find(piece); it != vocabulary_.end()) {
      ids.push_back(it->second);
    } else {
      encode_word(piece, ids);
    }
    return;
  }
  std::size_t word_begin = 0;
  for (std::size_t at = piece.find(kMarker, 1); at != std::string::npos;
       at = piece.find(kMarker, at + kMarker.size())) {
    const std::string_view before = character_before(piece, at);
    if (before == kMarker || joins_marker_.find(before) != joins_marker_.end()) continue;
    encode_word(piece.substr(word_begin, at - word_begin), ids);
    word_begin = at;
  }
  encode_word(piece.substr(word_begin), ids);
}

void BpeModel::encode_word(std::string_view word, std::vector<TokenId>& ids) const {
  if (cached(word, ids)) return;
  std::vector<Symbol> symbols;
  symbols.reserve(word.size());
  initial_symbols(word, symbols);
  merge(symbols);
  const std::size_t first = ids.size();
  for (const Symbol& symbol : symbols) {
    if (symbol.alive) ids.push_back(symbol.id);
  }
  remember(word, ids.data() + first, ids.size() - first);
}

bool BpeModel::cached(std::string_view piece, std::vector<TokenId>& ids) const {
  if (piece.size() > kCachedPieceBytes) return false;
  std::lock_guard lock(cache_mutex_);
  auto it = cache_.find(piece);
  if (it == cache_.end()) return false;
  ids.insert(ids.end(), it->second.begin(), it->second.end());
  return true;
}

void BpeModel::remember(std::string_view piece, const TokenId* first, std::size_t count) const {
  if (piece.size() > kCachedPieceBytes) return;
  std::lock_guard lock(cache_mutex_);
  // Bounded: when full, start again rather than grow (a long run over changing text would
  // otherwise keep every word it ever saw).
  if (cache_.size() >= kCacheEntries) cache_.clear();
  cache_.emplace(std::string(piece), std::vector<TokenId>(first, first + count));
}

}  // namespace bench::tokenizer
