#pragma once
// GPT-2's reversible byte-to-character map (openai/gpt-2 src/encoder.py, bytes_to_unicode),
// which byte-level BPE vocabularies are written in: printable bytes stand for themselves, the
// others for U+0100 onwards, so a space is "Ġ" and a newline "Ċ".
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bench::tokenizer {

class ByteLevelMap {
 public:
  ByteLevelMap();

  /// `bytes` written in the map's characters.
  std::string encode(std::string_view bytes) const;
  void append_encoded(std::string& out, std::string_view bytes) const;

  /// The byte a character stands for, nothing when it is not one of the map's characters.
  std::optional<std::uint8_t> byte_of(char32_t character) const;

  /// The UTF-8 text of the character that stands for `byte`.
  std::string_view character_of(std::uint8_t byte) const { return characters_[byte]; }

 private:
  std::array<std::string, 256> characters_;  // byte -> its character, UTF-8
  std::array<std::int16_t, 512> bytes_{};    // character (< U+0200) -> byte, -1 for none
};

/// The one shared instance (the map is a constant of the format).
const ByteLevelMap& byte_level_map();

}  // namespace bench::tokenizer
