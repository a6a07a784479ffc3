#include "bench/tokenizer/utf8.hpp"

#include "bench/util/utf8.hpp"

namespace bench::tokenizer::utf8 {

bool is_valid(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = util::utf8_sequence_length(text, at);
    if (length == 0) return false;
    at += length;
  }
  return true;
}

std::string to_valid(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const auto [expected, length] = util::utf8_prefix(text, at);
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
  const auto byte = [&](std::size_t i) {
    return static_cast<char32_t>(static_cast<unsigned char>(text[at + i]));
  };
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
