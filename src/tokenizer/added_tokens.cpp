#include "bench/tokenizer/added_tokens.hpp"

#include <algorithm>

namespace bench::tokenizer {
namespace {

bool is_space(char byte) {
  return byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r' || byte == '\v' ||
         byte == '\f';
}

}  // namespace

AddedTokenMatcher::AddedTokenMatcher(const std::vector<AddedToken>& tokens) : nodes_(1) {
  for (const AddedToken& token : tokens) {
    if (token.content.empty()) continue;
    std::int32_t node = 0;
    for (char byte : token.content) {
      const auto key = static_cast<unsigned char>(byte);
      std::int32_t next = child(node, key);
      if (next < 0) {
        next = static_cast<std::int32_t>(nodes_.size());
        auto& children = nodes_[static_cast<std::size_t>(node)].children;
        children.insert(std::lower_bound(children.begin(), children.end(),
                                         std::pair<unsigned char, std::int32_t>(key, -1)),
                        {key, next});
        nodes_.emplace_back();
      }
      node = next;
    }
    nodes_[static_cast<std::size_t>(node)].token = static_cast<std::int32_t>(tokens_.size());
    tokens_.push_back(token);
    may_start_[static_cast<unsigned char>(token.content.front())] = true;
  }
}

std::int32_t AddedTokenMatcher::child(std::int32_t node, unsigned char byte) const {
  const auto& children = nodes_[static_cast<std::size_t>(node)].children;
  auto it =
      std::lower_bound(children.begin(), children.end(), byte,
                       [](const auto& entry, unsigned char key) { return entry.first < key; });
  return it != children.end() && it->first == byte ? it->second : -1;
}

std::optional<AddedTokenMatcher::Match> AddedTokenMatcher::longest_at(std::string_view text,
                                                                      std::size_t at) const {
  std::optional<Match> found;
  std::int32_t node = 0;
  for (std::size_t end = at; end < text.size(); ++end) {
    node = child(node, static_cast<unsigned char>(text[end]));
    if (node < 0) break;
    const std::int32_t token = nodes_[static_cast<std::size_t>(node)].token;
    if (token >= 0) found = Match{at, end + 1, token};
  }
  return found;
}

std::vector<Segment> AddedTokenMatcher::split(std::string_view text) const {
  std::vector<Segment> segments;
  std::size_t plain_begin = 0;
  const auto add_plain = [&](std::size_t end) {
    if (end > plain_begin) {
      segments.push_back({text.substr(plain_begin, end - plain_begin), std::nullopt, plain_begin});
    }
  };
  for (std::size_t at = 0; at < text.size();) {
    if (!may_start_[static_cast<unsigned char>(text[at])]) {
      ++at;
      continue;
    }
    const auto match = longest_at(text, at);
    if (!match) {
      ++at;
      continue;
    }
    const AddedToken& token = tokens_[static_cast<std::size_t>(match->token)];
    std::size_t begin = match->begin;
    std::size_t end = match->end;
    if (token.lstrip) {
      while (begin > plain_begin && is_space(text[begin - 1])) --begin;
    }
    if (token.rstrip) {
      while (end < text.size() && is_space(text[end])) ++end;
    }
    add_plain(begin);
    segments.push_back({text.substr(begin, end - begin), token.id, begin});
    plain_begin = end;
    at = end;
  }
  add_plain(text.size());
  return segments;
}

}  // namespace bench::tokenizer
