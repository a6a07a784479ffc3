#pragma once
// Reading and writing well-formed UTF-8: the chunk scanner (which hands anything else to the DOM
// parse), the error excerpts and the XML escaper (which replace it with U+FFFD), the answer
// check's judge and the tokenizer all read it here.
#include <cstddef>
#include <string>
#include <string_view>

namespace bench::util {

/// How much of the UTF-8 sequence that starts at text[i] is well formed by RFC 3629 section 4
/// (no overlongs, no surrogates, nothing above U+10FFFF; Unicode's table 3-7): `expected`, the
/// length its lead byte announces (1 for ASCII and for a byte no sequence starts with), and
/// `valid`, how many of its bytes are well formed (== expected when the whole sequence is; 0 when
/// the lead byte is not one). A lossy decoder replaces each ill-formed prefix with one U+FFFD.
struct Utf8Prefix {
  std::size_t expected = 1;
  std::size_t valid = 0;
};

inline Utf8Prefix utf8_prefix(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  Utf8Prefix out;
  unsigned char low = 0x80, high = 0xBF;  // range of the second byte
  if (lead < 0x80) {
    out.valid = 1;
    return out;
  }
  if (lead >= 0xC2 && lead <= 0xDF) {
    out.expected = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    out.expected = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    out.expected = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
  } else {
    return out;
  }
  out.valid = 1;
  while (out.valid < out.expected && i + out.valid < text.size()) {
    const auto next = static_cast<unsigned char>(text[i + out.valid]);
    const bool fits =
        out.valid == 1 ? (next >= low && next <= high) : (next >= 0x80 && next <= 0xBF);
    if (!fits) break;
    ++out.valid;
  }
  return out;
}

/// The length of the UTF-8 sequence that starts at text[i] when it is well formed (utf8_prefix):
/// 1 for ASCII, 2 to 4 for a multi-byte sequence; 0 when it is not well formed (a byte no
/// sequence starts with, a bad continuation byte, a sequence cut short by the end of `text`).
/// The one owner of the question: every reader of UTF-8 (the chunk scanner, the error excerpts,
/// the XML escaper, the answer check's judge, the tokenizer) walks text with it.
inline std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const Utf8Prefix prefix = utf8_prefix(text, i);
  return prefix.valid == prefix.expected ? prefix.valid : 0;
}

/// Appends `code_point` (at most U+10FFFF, not a surrogate) as UTF-8.
inline void append_utf8(std::string& out, char32_t code_point) {
  if (code_point < 0x80) {
    out.push_back(static_cast<char>(code_point));
  } else if (code_point < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (code_point >> 6)));
    out.push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else if (code_point < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (code_point >> 12)));
    out.push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (code_point >> 18)));
    out.push_back(static_cast<char>(0x80 | ((code_point >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  }
}

}  // namespace bench::util
