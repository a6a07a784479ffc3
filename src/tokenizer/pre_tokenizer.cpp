#include "bench/tokenizer/pre_tokenizer.hpp"

#include <optional>

#include <nlohmann/json.hpp>

#include "bench/tokenizer/byte_level.hpp"
#include "bench/tokenizer/regex.hpp"
#include "bench/tokenizer/tokenizer.hpp"

namespace bench::tokenizer {
namespace {

// GPT-2's pattern, which ByteLevel applies itself when `use_regex` is true
// (tokenizers/src/pre_tokenizers/byte_level.rs).
constexpr std::string_view kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

enum class Behavior { removed, isolated, merged_with_previous, merged_with_next, contiguous };

struct Range {
  std::size_t begin;
  std::size_t end;
  bool is_match;
};

// The whole of `text` as alternating gaps and matches, as split.rs's find_matches gives them.
std::vector<Range> ranges_of(const Regex& regex, const std::string& text, bool invert) {
  std::vector<Range> ranges;
  std::size_t previous = 0;
  for (const auto& [begin, end] : regex.find_all(text)) {
    if (begin > previous) ranges.push_back({previous, begin, invert});
    ranges.push_back({begin, end, !invert});
    previous = end;
  }
  if (previous < text.size()) ranges.push_back({previous, text.size(), invert});
  return ranges;
}

// split.rs's SplitDelimiterBehavior applied to the gaps and matches.
std::vector<Range> delimit(Behavior behavior, const std::vector<Range>& ranges) {
  std::vector<Range> out;
  bool previous_match = false;
  switch (behavior) {
    case Behavior::isolated: return ranges;
    case Behavior::removed:
      for (const Range& range : ranges) {
        if (!range.is_match) out.push_back(range);
      }
      return out;
    case Behavior::merged_with_previous:
      for (const Range& range : ranges) {
        if (range.is_match && !previous_match && !out.empty()) {
          out.back().end = range.end;
        } else {
          out.push_back(range);
        }
        previous_match = range.is_match;
      }
      return out;
    case Behavior::merged_with_next:
      for (auto range = ranges.rbegin(); range != ranges.rend(); ++range) {
        if (range->is_match && !previous_match && !out.empty()) {
          out.back().begin = range->begin;
        } else {
          out.push_back(*range);
        }
        previous_match = range->is_match;
      }
      return {out.rbegin(), out.rend()};
    case Behavior::contiguous:
      for (const Range& range : ranges) {
        if (range.is_match == previous_match && !out.empty()) {
          out.back().end = range.end;
        } else {
          out.push_back(range);
        }
        previous_match = range.is_match;
      }
      return out;
  }
  return out;
}

void split_each(std::vector<Piece>& pieces, const Regex& regex, Behavior behavior, bool invert) {
  std::vector<Piece> out;
  out.reserve(pieces.size() * 4);
  for (Piece& piece : pieces) {
    bool first = true;
    for (const Range& range : delimit(behavior, ranges_of(regex, piece.text, invert))) {
      if (range.end == range.begin) continue;
      out.push_back({piece.text.substr(range.begin, range.end - range.begin),
                     piece.starts_text && first && range.begin == 0});
      first = false;
    }
  }
  pieces = std::move(out);
}

class Split final : public PreTokenizer {
 public:
  Split(const std::string& pattern, Regex::Syntax syntax, Behavior behavior, bool invert)
      : regex_(pattern, syntax), behavior_(behavior), invert_(invert) {}
  void split(std::vector<Piece>& pieces) const override {
    split_each(pieces, regex_, behavior_, invert_);
  }

 private:
  Regex regex_;
  Behavior behavior_;
  bool invert_;
};

class ByteLevel final : public PreTokenizer {
 public:
  ByteLevel(bool add_prefix_space, bool use_regex) : add_prefix_space_(add_prefix_space) {
    if (use_regex) regex_.emplace(kGpt2Pattern, Regex::Syntax::pattern);
  }
  void split(std::vector<Piece>& pieces) const override {
    if (add_prefix_space_) {
      for (Piece& piece : pieces) {
        if (piece.text.empty() || piece.text.front() != ' ') piece.text.insert(0, 1, ' ');
      }
    }
    if (regex_) split_each(pieces, *regex_, Behavior::isolated, false);
    const ByteLevelMap& map = byte_level_map();
    for (Piece& piece : pieces) piece.text = map.encode(piece.text);
  }

 private:
  bool add_prefix_space_;
  std::optional<Regex> regex_;
};

enum class PrependScheme { always, first, never };

class Metaspace final : public PreTokenizer {
 public:
  Metaspace(std::string replacement, PrependScheme scheme, bool split)
      : replacement_(std::move(replacement)), scheme_(scheme) {
    if (split) splitter_.emplace(replacement_, Regex::Syntax::literal);
  }
  void split(std::vector<Piece>& pieces) const override {
    for (Piece& piece : pieces) {
      std::string text;
      for (char byte : piece.text) {
        if (byte == ' ') {
          text += replacement_;
        } else {
          text.push_back(byte);
        }
      }
      const bool prepend = scheme_ == PrependScheme::always ||
                           (scheme_ == PrependScheme::first && piece.starts_text);
      if (prepend && text.compare(0, replacement_.size(), replacement_) != 0) {
        text.insert(0, replacement_);
      }
      piece.text = std::move(text);
    }
    if (splitter_) split_each(pieces, *splitter_, Behavior::merged_with_next, false);
  }

 private:
  std::string replacement_;
  PrependScheme scheme_;
  std::optional<Regex> splitter_;
};

class PreTokenizerSequence final : public PreTokenizer {
 public:
  explicit PreTokenizerSequence(std::vector<std::unique_ptr<PreTokenizer>> steps)
      : steps_(std::move(steps)) {}
  void split(std::vector<Piece>& pieces) const override {
    for (const auto& step : steps_) step->split(pieces);
  }

 private:
  std::vector<std::unique_ptr<PreTokenizer>> steps_;
};

Behavior behavior_of(const std::string& name) {
  if (name == "Removed") return Behavior::removed;
  if (name == "Isolated") return Behavior::isolated;
  if (name == "MergedWithPrevious") return Behavior::merged_with_previous;
  if (name == "MergedWithNext") return Behavior::merged_with_next;
  if (name == "Contiguous") return Behavior::contiguous;
  throw TokenizerError("unsupported Split behavior '" + name + "'");
}

std::unique_ptr<PreTokenizer> make_split(const nlohmann::json& config) {
  const auto& pattern = config.at("pattern");
  const Behavior behavior = behavior_of(config.at("behavior").get<std::string>());
  const bool invert = config.value("invert", false);
  if (pattern.contains("Regex")) {
    return std::make_unique<Split>(pattern.at("Regex").get<std::string>(), Regex::Syntax::pattern,
                                   behavior, invert);
  }
  return std::make_unique<Split>(pattern.at("String").get<std::string>(), Regex::Syntax::literal,
                                 behavior, invert);
}

std::unique_ptr<PreTokenizer> make_metaspace(const nlohmann::json& config) {
  PrependScheme scheme =
      config.value("add_prefix_space", true) ? PrependScheme::always : PrependScheme::never;
  if (config.contains("prepend_scheme")) {
    const auto name = config.at("prepend_scheme").get<std::string>();
    if (name == "always") {
      scheme = PrependScheme::always;
    } else if (name == "first") {
      scheme = PrependScheme::first;
    } else if (name == "never") {
      scheme = PrependScheme::never;
    } else {
      throw TokenizerError("unsupported Metaspace prepend_scheme '" + name + "'");
    }
  }
  return std::make_unique<Metaspace>(config.value("replacement", std::string("\xE2\x96\x81")),
                                     scheme, config.value("split", true));
}

}  // namespace

std::unique_ptr<PreTokenizer> make_pre_tokenizer(const nlohmann::json& config) {
  if (config.is_null()) return nullptr;
  const auto type = config.at("type").get<std::string>();
  if (type == "Sequence") {
    std::vector<std::unique_ptr<PreTokenizer>> steps;
    for (const auto& step : config.at("pretokenizers")) {
      if (auto made = make_pre_tokenizer(step)) steps.push_back(std::move(made));
    }
    return std::make_unique<PreTokenizerSequence>(std::move(steps));
  }
  if (type == "Split") return make_split(config);
  if (type == "ByteLevel") {
    return std::make_unique<ByteLevel>(config.value("add_prefix_space", false),
                                       config.value("use_regex", true));
  }
  if (type == "Metaspace") return make_metaspace(config);
  throw TokenizerError("unsupported pre-tokenizer '" + type + "'");
}

}  // namespace bench::tokenizer
