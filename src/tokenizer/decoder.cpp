#include "bench/tokenizer/decoder.hpp"

#include <nlohmann/json.hpp>

#include "bench/tokenizer/byte_level.hpp"
#include "bench/tokenizer/tokenizer.hpp"
#include "bench/tokenizer/utf8.hpp"
#include "bench/util/utf8.hpp"

namespace bench::tokenizer {
namespace {

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD

// All tokens' bytes joined, then read as UTF-8 with invalid bytes replaced (byte_level.rs).
// A token with a character outside the alphabet (an added token such as DeepSeek's
// "<｜User｜>") is taken as its own UTF-8 bytes.
class ByteLevel final : public Decoder {
 public:
  void decode(std::vector<std::string>& tokens) const override {
    const ByteLevelMap& map = byte_level_map();
    std::string bytes;
    for (const std::string& token : tokens) {
      const std::size_t before = bytes.size();
      bool mapped = true;
      for (std::size_t at = 0; at < token.size() && mapped;) {
        std::size_t length = util::utf8_sequence_length(token, at);
        if (length == 0) length = 1;
        const auto byte = map.byte_of(utf8::decode_at(token, at, length));
        if (byte) {
          bytes.push_back(static_cast<char>(*byte));
        } else {
          mapped = false;
        }
        at += length;
      }
      if (!mapped) bytes.replace(before, std::string::npos, token);
    }
    tokens.assign(1, utf8::to_valid(bytes));
  }
};

class Replace final : public Decoder {
 public:
  Replace(std::string pattern, std::string content)
      : pattern_(std::move(pattern)), content_(std::move(content)) {}
  void decode(std::vector<std::string>& tokens) const override {
    for (std::string& token : tokens) {
      std::string out;
      std::size_t at = 0;
      for (std::size_t found; (found = token.find(pattern_, at)) != std::string::npos;
           at = found + pattern_.size()) {
        out.append(token, at, found - at);
        out += content_;
      }
      out.append(token, at);
      token = std::move(out);
    }
  }

 private:
  std::string pattern_;
  std::string content_;
};

std::optional<char> byte_token(const std::string& token) {
  if (token.size() != 6 || token.compare(0, 3, "<0x") != 0 || token[5] != '>') return std::nullopt;
  const auto hex = [](char digit) -> int {
    if (digit >= '0' && digit <= '9') return digit - '0';
    if (digit >= 'A' && digit <= 'F') return digit - 'A' + 10;
    if (digit >= 'a' && digit <= 'f') return digit - 'a' + 10;
    return -1;
  };
  const int high = hex(token[3]);
  const int low = hex(token[4]);
  if (high < 0 || low < 0) return std::nullopt;
  return static_cast<char>(high * 16 + low);
}

// byte_fallback.rs: a run of "<0xNN>" tokens becomes its text when the bytes are valid UTF-8,
// else one U+FFFD per byte.
class ByteFallback final : public Decoder {
 public:
  void decode(std::vector<std::string>& tokens) const override {
    std::vector<std::string> out;
    std::string bytes;
    std::size_t byte_count = 0;
    const auto flush = [&] {
      if (byte_count == 0) return;
      if (utf8::is_valid(bytes)) {
        out.push_back(bytes);
      } else {
        for (std::size_t i = 0; i < byte_count; ++i) out.emplace_back(kReplacementCharacter);
      }
      bytes.clear();
      byte_count = 0;
    };
    for (std::string& token : tokens) {
      if (auto byte = byte_token(token)) {
        bytes.push_back(*byte);
        ++byte_count;
        continue;
      }
      flush();
      out.push_back(std::move(token));
    }
    flush();
    tokens = std::move(out);
  }
};

class Fuse final : public Decoder {
 public:
  void decode(std::vector<std::string>& tokens) const override {
    std::string joined;
    for (const std::string& token : tokens) joined += token;
    tokens.assign(1, std::move(joined));
  }
};

// strip.rs: up to `start` leading and `stop` trailing characters equal to `content`, from
// each token.
class Strip final : public Decoder {
 public:
  Strip(std::string content, std::size_t start, std::size_t stop)
      : content_(std::move(content)), start_(start), stop_(stop) {}
  void decode(std::vector<std::string>& tokens) const override {
    for (std::string& token : tokens) {
      std::size_t begin = 0;
      for (std::size_t i = 0; i < start_ && token.compare(begin, content_.size(), content_) == 0;
           ++i) {
        begin += content_.size();
      }
      std::size_t end = token.size();
      for (std::size_t i = 0; i < stop_ && end >= begin + content_.size() &&
                              token.compare(end - content_.size(), content_.size(), content_) == 0;
           ++i) {
        end -= content_.size();
      }
      token = token.substr(begin, end - begin);
    }
  }

 private:
  std::string content_;
  std::size_t start_;
  std::size_t stop_;
};

// metaspace.rs: "▁" back to spaces, and the space prepended at encoding off the first token.
class Metaspace final : public Decoder {
 public:
  Metaspace(std::string replacement, bool strip_first)
      : replace_(replacement, " "), strip_first_(strip_first) {}
  void decode(std::vector<std::string>& tokens) const override {
    replace_.decode(tokens);
    if (strip_first_ && !tokens.empty() && !tokens.front().empty() && tokens.front()[0] == ' ') {
      tokens.front().erase(0, 1);
    }
  }

 private:
  Replace replace_;
  bool strip_first_;
};

class DecoderSequence final : public Decoder {
 public:
  explicit DecoderSequence(std::vector<std::unique_ptr<Decoder>> steps)
      : steps_(std::move(steps)) {}
  void decode(std::vector<std::string>& tokens) const override {
    for (const auto& step : steps_) step->decode(tokens);
  }

 private:
  std::vector<std::unique_ptr<Decoder>> steps_;
};

std::unique_ptr<Decoder> make_replace(const nlohmann::json& config) {
  const auto& pattern = config.at("pattern");
  if (!pattern.contains("String")) {
    throw TokenizerError("unsupported decoder 'Replace' with a Regex pattern");
  }
  return std::make_unique<Replace>(pattern.at("String").get<std::string>(),
                                   config.at("content").get<std::string>());
}

std::unique_ptr<Decoder> make_metaspace(const nlohmann::json& config) {
  bool strip_first = config.value("add_prefix_space", true);
  if (config.contains("prepend_scheme")) strip_first = config.at("prepend_scheme") != "never";
  return std::make_unique<Metaspace>(config.value("replacement", std::string("\xE2\x96\x81")),
                                     strip_first);
}

}  // namespace

std::unique_ptr<Decoder> make_decoder(const nlohmann::json& config) {
  if (config.is_null()) return nullptr;
  const auto type = config.at("type").get<std::string>();
  if (type == "Sequence") {
    std::vector<std::unique_ptr<Decoder>> steps;
    for (const auto& step : config.at("decoders")) {
      if (auto made = make_decoder(step)) steps.push_back(std::move(made));
    }
    return std::make_unique<DecoderSequence>(std::move(steps));
  }
  if (type == "ByteLevel") return std::make_unique<ByteLevel>();
  if (type == "Replace") return make_replace(config);
  if (type == "ByteFallback") return std::make_unique<ByteFallback>();
  if (type == "Fuse") return std::make_unique<Fuse>();
  if (type == "Strip") {
    return std::make_unique<Strip>(config.at("content").get<std::string>(),
                                   config.value("start", std::size_t{0}),
                                   config.value("stop", std::size_t{0}));
  }
  if (type == "Metaspace") return make_metaspace(config);
  throw TokenizerError("unsupported decoder '" + type + "'");
}

}  // namespace bench::tokenizer
