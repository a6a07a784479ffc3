#include "bench/tokenizer/byte_level.hpp"

#include "bench/tokenizer/utf8.hpp"

namespace bench::tokenizer {
namespace {

bool stands_for_itself(int byte) {
  return (byte >= '!' && byte <= '~') || (byte >= 0xA1 && byte <= 0xAC) ||
         (byte >= 0xAE && byte <= 0xFF);
}

}  // namespace

ByteLevelMap::ByteLevelMap() {
  bytes_.fill(-1);
  char32_t next_unused = 256;
  for (int byte = 0; byte < 256; ++byte) {
    const char32_t character =
        stands_for_itself(byte) ? static_cast<char32_t>(byte) : next_unused++;
    utf8::append(characters_[static_cast<std::size_t>(byte)], character);
    bytes_[character] = static_cast<std::int16_t>(byte);
  }
}

std::string ByteLevelMap::encode(std::string_view bytes) const {
  std::string out;
  append_encoded(out, bytes);
  return out;
}

void ByteLevelMap::append_encoded(std::string& out, std::string_view bytes) const {
  out.reserve(out.size() + bytes.size() * 2);
  for (char byte : bytes) out.append(characters_[static_cast<std::uint8_t>(byte)]);
}

std::optional<std::uint8_t> ByteLevelMap::byte_of(char32_t character) const {
  if (character >= bytes_.size() || bytes_[character] < 0) return std::nullopt;
  return static_cast<std::uint8_t>(bytes_[character]);
}

const ByteLevelMap& byte_level_map() {
  static const ByteLevelMap map;
  return map;
}

}  // namespace bench::tokenizer
