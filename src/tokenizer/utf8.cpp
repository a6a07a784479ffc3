#include "bench/tokenizer/utf8.hpp"

#include "bench/util/utf8.hpp"

namespace bench::tokenizer::utf8 {
namespace {

bool is_continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// How many bytes of a sequence starting with `lead` are well formed (Unicode 15, table 3-7), up
// to the full length when the sequence is valid. Used for both the check and the lossy repair.
std::size_t valid_prefix(std::string_view text, std::size_t at, std::size_t& expected) {
  const auto lead = static_cast<unsigned char>(text[at]);
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead < 0x80) {
    expected = 1;
    return 1;
  }
  if (lead >= 0xC2 && lead <= 0xDF) {
    expected = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    expected = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    expected = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;  // nothing beyond U+10FFFF
  } else {
    expected = 1;
    return 0;
  }
  std::size_t length = 1;
  while (length < expected && at + length < text.size()) {
    const auto byte = static_cast<unsigned char>(text[at + length]);
    if (length == 1 ? (byte < low || byte > high) : !is_continuation(byte)) break;
    ++length;
  }
  return length;
}

}  // namespace

std::size_t sequence_length(std::string_view text, std::size_t at) {
  std::size_t expected = 0;
  const std::size_t length = valid_prefix(text, at, expected);
  return length == expected ? length : 0;
}

bool is_valid(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    if (static_cast<unsigned char>(text[at]) < 0x80) {
      ++at;
      continue;
    }
    const std::size_t length = sequence_length(text, at);
    if (length == 0) return false;
    at += length;
  }
  return true;
}

std::string to_valid(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    std::size_t expected = 0;
    const std::size_t length = valid_prefix(text, at, expected);
    if (length == expected) {
      out.append(text.substr(at, length));
      at += length;
    } else {
      out.append("\xEF\xBF\xBD");  // U+FFFD for the maximal invalid subpart
      at += length == 0 ? 1 : length;
    }
  }
  return out;
}

char32_t decode_at(std::string_view text, std::size_t at, std::size_t length) {
  const auto byte = [&](std::size_t i) { return static_cast<char32_t>(
                                             static_cast<unsigned char>(text[at + i])); };
  switch (length) {
    case 1: return byte(0);
    case 2: return ((byte(0) & 0x1F) << 6) | (byte(1) & 0x3F);
    case 3: return ((byte(0) & 0x0F) << 12) | ((byte(1) & 0x3F) << 6) | (byte(2) & 0x3F);
    default:
      return ((byte(0) & 0x07) << 18) | ((byte(1) & 0x3F) << 12) | ((byte(2) & 0x3F) << 6) |
             (byte(3) & 0x3F);
  }
}

void append(std::string& out, char32_t code_point) { util::append_utf8(out, code_point); }

}  // namespace bench::tokenizer::utf8
