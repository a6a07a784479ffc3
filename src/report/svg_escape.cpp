// Escaping for XML text and attribute values, shared by the SVG writer and the HTML report:
// every string from the user or the server (model names, URLs, error messages) passes here.
#include <string>
#include <string_view>

#include "bench/report/svg_chart.hpp"
#include "bench/util/utf8.hpp"

namespace bench::report::svg {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// One ASCII character: the five XML specials as entities, control characters XML forbids
// (all below 0x20 but tab, LF and CR) as U+FFFD.
void append_ascii(unsigned char c, std::string& out) {
  switch (c) {
    case '&': out += "&amp;"; return;
    case '<': out += "&lt;"; return;
    case '>': out += "&gt;"; return;
    case '"': out += "&quot;"; return;
    case '\'': out += "&#39;"; return;
    default:
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
        out += kReplacement;
      } else {
        out += static_cast<char>(c);
      }
  }
}

// The length of the UTF-8 sequence at text[i] when it is well formed (util/utf8.hpp) and not
// U+FFFE/U+FFFF, which XML forbids; 0 when it is not.
std::size_t xml_sequence_length(std::string_view text, std::size_t i) {
  const std::size_t length = util::utf8_sequence_length(text, i);
  if (length == 3 && static_cast<unsigned char>(text[i]) == 0xEF &&
      static_cast<unsigned char>(text[i + 1]) == 0xBF &&
      static_cast<unsigned char>(text[i + 2]) >= 0xBE) {
    return 0;
  }
  return length;
}

}  // namespace

std::string escape_xml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      append_ascii(c, out);
      ++i;
    } else if (const std::size_t length = xml_sequence_length(text, i); length > 0) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      out += kReplacement;
      ++i;
    }
  }
  return out;
}

}  // namespace bench::report::svg
