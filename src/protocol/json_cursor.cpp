// Decoding the strings the JSON cursor kept: escapes, surrogate pairs, UTF-8.
#include "json_cursor.hpp"

namespace bench::protocol::json_scan {

void append_decoded(std::string& out, const RawString& string) {
  if (!string.escaped) {
    out.append(string.raw);
    return;
  }
  const std::string_view raw = string.raw;
  std::size_t i = 0;
  while (i < raw.size()) {
    const std::size_t backslash = raw.find('\\', i);
    if (backslash == std::string_view::npos) {
      out.append(raw.substr(i));
      return;
    }
    out.append(raw.substr(i, backslash - i));
    const char kind = raw[backslash + 1];
    i = backslash + 2;
    switch (kind) {
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case 'u': {
        auto code_point = static_cast<std::uint32_t>(hex4(raw.data() + i));
        i += 4;
        if (code_point >= 0xD800 && code_point <= 0xDBFF) {
          // Validated: a "\uDC00".."\uDFFF" low surrogate follows.
          const auto low = static_cast<std::uint32_t>(hex4(raw.data() + i + 2));
          i += 6;
          code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
        }
        util::append_utf8(out, code_point);
        break;
      }
      default: out.push_back(kind); break;  // '"', '\\' and '/' stand for themselves
    }
  }
}

void assign_decoded(std::string& out, const RawString& string) {
  out.clear();
  append_decoded(out, string);
}

}  // namespace bench::protocol::json_scan
