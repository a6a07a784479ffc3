#pragma once
// The JSON grammar under the chunk scanner (chunk_scanner.hpp): a cursor over one payload that
// validates as nlohmann::json::parse does (RFC 8259, its UTF-8 rules) and skips what it is not
// asked to keep, and the strings it keeps as views, decoded only when kept. Internal to the
// protocol module: the chunk's reader (chunk_scanner.cpp) and its tool calls' (tool_call_scan.cpp)
// are written on it. Header-only but for the decoding: its members are the scanner's hot loop.
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "bench/util/utf8.hpp"

namespace bench::protocol::json_scan {

// Deeper values are left to the DOM path; streamed chunks nest four or five levels.
inline constexpr int kMaxDepth = 64;
// A number whose integer part has this many digits more than its exponent takes away is the
// largest that is surely finite as a double (DBL_MAX is about 1.8e308). nlohmann rejects a
// number that overflows to infinity, so the scanner must not accept one it cannot prove finite.
inline constexpr int kMaxDecimalMagnitude = 300;
inline constexpr int kMaxCountDigits = 18;  // always fits int64 (9.2e18)

// Bytes that may appear in a JSON string unescaped and need no UTF-8 check: 0x20..0x7F except
// the quote and the backslash (RFC 8259 section 7; 0x7F is allowed, as nlohmann allows it).
inline constexpr std::array<bool, 256> kPlainStringByte = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c <= 0x7F; ++c) plain[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return plain;
}();

// The first byte at or after `p` that ends a run of plain string bytes (a quote, a backslash, a
// control character or a non-ASCII byte), or `end`. Eight bytes at a time while they last, by
// the bit tricks of "Bit Twiddling Hacks" (haszero/hasless): a run of ids and model names is
// the bulk of every chunk's bytes.
inline const char* skip_plain(const char* p, const char* end) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  const auto has_zero_byte = [](std::uint64_t word) { return (word - kOnes) & ~word & kHighs; };
  while (end - p >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, sizeof word);
    const std::uint64_t special = has_zero_byte(word ^ (kOnes * '"')) |
                                  has_zero_byte(word ^ (kOnes * '\\')) |
                                  ((word - kOnes * 0x20) & ~word & kHighs) |  // a byte < 0x20
                                  (word & kHighs);                            // a byte >= 0x80
    if (special != 0) {
      // The lowest flagged byte is exact (a borrow can only flag bytes above a true hit), and
      // on a little-endian machine the lowest byte is the first in memory.
      if constexpr (std::endian::native == std::endian::little) {
        return p + std::countr_zero(special) / 8;
      }
      break;
    }
    p += 8;
  }
  while (p != end && kPlainStringByte[static_cast<unsigned char>(*p)]) ++p;
  return p;
}

// A JSON string as it appears between its quotes, already validated; decoded only when kept.
struct RawString {
  std::string_view raw;
  bool escaped = false;  // holds a backslash escape, so raw is not the value itself
};

// Whether `key` is `name`; the length is a constant, so the comparison compiles to a few loads
// instead of a call to memcmp (which showed in the profile).
template <std::size_t N>
bool is(std::string_view key, const char (&name)[N]) {
  return key.size() == N - 1 && std::memcmp(key.data(), name, N - 1) == 0;
}

inline int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The four hex digits at `p` as a code unit, or -1.
inline int hex4(const char* p) {
  int value = 0;
  for (int i = 0; i < 4; ++i) {
    const int digit = hex_value(p[i]);
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

// Appends the value of a string the cursor has validated: escapes decoded, \uXXXX surrogate
// pairs joined into one code point, written as UTF-8 (what nlohmann's lexer produces).
void append_decoded(std::string& out, const RawString& string);

// `out` set to the decoded value of `string`, keeping its capacity.
void assign_decoded(std::string& out, const RawString& string);

// A cursor over one payload. Every member function that reads returns false to give up, at the
// first byte that is invalid JSON or merely unusual; the caller then asks the DOM path.
class JsonCursor {
 public:
  explicit JsonCursor(std::string_view data) : p_(data.data()), end_(data.data() + data.size()) {}

  bool at_end() const { return p_ == end_; }

  bool at(char c) const { return p_ != end_ && *p_ == c; }

  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }

  // Calls on_member(key) for each member of the object at p_, with p_ at the member's value;
  // on_member must consume the value. Stops at the closing brace.
  template <typename OnMember>
  bool object(int depth, OnMember&& on_member) {
    if (depth > kMaxDepth) return false;
    ++p_;  // '{'
    skip_space();
    if (at('}')) {
      ++p_;
      return true;
    }
    while (true) {
      RawString key;
      if (!at('"') || !string(key)) return false;
      skip_space();
      if (!at(':')) return false;
      ++p_;
      skip_space();
      if (!on_member(key)) return false;
      skip_space();
      if (at(',')) {
        ++p_;
        skip_space();
        continue;
      }
      if (!at('}')) return false;
      ++p_;
      return true;
    }
  }

  // Like object(), for the elements of the array at p_; on_element gets the element's index.
  template <typename OnElement>
  bool array(int depth, OnElement&& on_element) {
    if (depth > kMaxDepth) return false;
    ++p_;  // '['
    skip_space();
    if (at(']')) {
      ++p_;
      return true;
    }
    for (std::size_t index = 0;; ++index) {
      if (!on_element(index)) return false;
      skip_space();
      if (at(',')) {
        ++p_;
        skip_space();
        continue;
      }
      if (!at(']')) return false;
      ++p_;
      return true;
    }
  }

  // Whether a member of an object the scanner reads may be read: not a repeat (nlohmann keeps
  // the last of repeated keys; the scanner does not guess) and not an escaped name, which,
  // decoded, might be one the scanner reads. Marks `key` seen.
  static bool first_time(const RawString& name, unsigned key, unsigned& seen) {
    if (name.escaped || (seen & key) != 0) return false;
    seen |= key;
    return true;
  }

  // A value that is kept when it is a string and ignored (but validated) otherwise.
  bool optional_string(std::optional<RawString>& out, int depth) {
    if (!at('"')) return value(depth);
    out.emplace();
    return string(*out);
  }

  // A token count: a plain non-negative integer is read; other numbers (negative, fractions,
  // exponents, very long) are left to the DOM path's rules; any other value means no count.
  bool count(std::optional<std::int64_t>& out, int depth = 2) {
    if (p_ == end_ || *p_ < '0' || *p_ > '9') {
      if (at('-')) return false;
      return value(depth);
    }
    const char* const start = p_;
    std::int64_t result = 0;
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') {
      if (p_ - start == kMaxCountDigits) return false;
      result = result * 10 + (*p_ - '0');
      ++p_;
    }
    if (p_ - start > 1 && *start == '0') return false;  // a leading zero is not JSON
    if (at('.') || at('e') || at('E')) return false;
    out = result;
    return true;
  }

  // Any JSON value, validated and skipped.
  bool value(int depth) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '"': {
        RawString ignored;
        return string(ignored);
      }
      case '{': return object(depth + 1, [&](const RawString&) { return value(depth + 1); });
      case '[': return array(depth + 1, [&](std::size_t) { return value(depth + 1); });
      case 't': return literal("true");
      case 'f': return literal("false");
      case 'n': return literal("null");
      default: return number();
    }
  }

  template <std::size_t N>
  bool literal(const char (&word)[N]) {
    if (static_cast<std::size_t>(end_ - p_) < N - 1 || std::memcmp(p_, word, N - 1) != 0) {
      return false;
    }
    p_ += N - 1;
    return true;
  }

  // A string at p_ (its opening quote): validated as nlohmann's lexer does (no raw control
  // characters, known escapes only, \u surrogates paired, well-formed UTF-8 per RFC 3629).
  bool string(RawString& out) {
    ++p_;  // '"'
    const char* const start = p_;
    while (true) {
      p_ = skip_plain(p_, end_);
      if (p_ == end_) return false;
      const auto byte = static_cast<unsigned char>(*p_);
      if (byte == '"') {
        out.raw = std::string_view(start, static_cast<std::size_t>(p_ - start));
        ++p_;
        return true;
      }
      if (byte == '\\') {
        out.escaped = true;
        if (!escape()) return false;
      } else if (byte < 0x20) {
        return false;
      } else if (!utf8_sequence()) {
        return false;
      }
    }
  }

 private:
  bool digits() {
    const char* const start = p_;
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    return p_ != start;
  }

  // RFC 8259 section 6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
  bool number() {
    if (at('-')) ++p_;
    const char* const integer_start = p_;
    if (at('0')) {
      ++p_;
    } else if (p_ == end_ || *p_ < '1' || *p_ > '9' || !digits()) {
      return false;
    }
    const auto integer_digits = static_cast<int>(p_ - integer_start);
    if (at('.')) {
      ++p_;
      if (!digits()) return false;
    }
    int exponent = 0;
    if (at('e') || at('E')) {
      ++p_;
      const bool negative = at('-');
      if (negative || at('+')) ++p_;
      const char* const exponent_start = p_;
      if (!digits()) return false;
      // Only magnitude matters: a long negative exponent is an underflow to 0 (which nlohmann
      // accepts), but the scanner keeps its arithmetic small and gives up on it as well.
      if (p_ - exponent_start > 4) return false;
      for (const char* d = exponent_start; d != p_; ++d) exponent = exponent * 10 + (*d - '0');
      if (negative) exponent = -exponent;
    }
    return integer_digits + exponent <= kMaxDecimalMagnitude;
  }

  bool escape() {
    ++p_;  // '\\'
    if (p_ == end_) return false;
    switch (*p_++) {
      case '"':
      case '\\':
      case '/':
      case 'b':
      case 'f':
      case 'n':
      case 'r':
      case 't': return true;
      case 'u': {
        if (end_ - p_ < 4) return false;
        const int unit = hex4(p_);
        p_ += 4;
        if (unit < 0) return false;
        if (unit >= 0xDC00 && unit <= 0xDFFF) return false;  // a low surrogate alone
        if (unit < 0xD800 || unit > 0xDBFF) return true;
        // A high surrogate must be followed at once by an escaped low one.
        if (end_ - p_ < 6 || p_[0] != '\\' || p_[1] != 'u') return false;
        const int low = hex4(p_ + 2);
        p_ += 6;
        return low >= 0xDC00 && low <= 0xDFFF;
      }
      default: return false;
    }
  }

  // One well-formed multi-byte UTF-8 sequence at p_ (util/utf8.hpp).
  bool utf8_sequence() {
    const std::size_t length =
        util::utf8_sequence_length(std::string_view(p_, static_cast<std::size_t>(end_ - p_)), 0);
    p_ += length;
    return length > 0;
  }

  const char* p_;
  const char* const end_;
};

}  // namespace bench::protocol::json_scan
