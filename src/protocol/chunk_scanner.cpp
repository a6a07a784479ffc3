#include "bench/protocol/chunk_scanner.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#include "bench/util/utf8.hpp"

namespace bench::protocol {

namespace {

// Deeper values are left to the DOM path; streamed chunks nest four or five levels.
constexpr int kMaxDepth = 64;
// A number whose integer part has this many digits more than its exponent takes away is the
// largest that is surely finite as a double (DBL_MAX is about 1.8e308). nlohmann rejects a
// number that overflows to infinity, so the scanner must not accept one it cannot prove finite.
constexpr int kMaxDecimalMagnitude = 300;
constexpr int kMaxCountDigits = 18;  // always fits int64 (9.2e18)

// Bytes that may appear in a JSON string unescaped and need no UTF-8 check: 0x20..0x7F except
// the quote and the backslash (RFC 8259 section 7; 0x7F is allowed, as nlohmann allows it).
constexpr std::array<bool, 256> kPlainStringByte = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c <= 0x7F; ++c) plain[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return plain;
}();

// The first byte at or after `p` that ends a run of plain string bytes (a quote, a backslash, a
// control character or a non-ASCII byte), or `end`. Eight bytes at a time while they last, by
// the bit tricks of "Bit Twiddling Hacks" (haszero/hasless): a run of ids and model names is
// the bulk of every chunk's bytes.
const char* skip_plain(const char* p, const char* end) {
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

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The four hex digits at `p` as a code unit, or -1.
int hex4(const char* p) {
  int value = 0;
  for (int i = 0; i < 4; ++i) {
    const int digit = hex_value(p[i]);
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

// Appends the value of a string the scanner has validated: escapes decoded, \uXXXX surrogate
// pairs joined into one code point, written as UTF-8 (what nlohmann's lexer produces).
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

// One element of delta.tool_calls: its index and id, and its function's name and argument
// fragment, when they are of their types.
struct ToolCallFragment {
  std::optional<std::int64_t> index;
  std::optional<RawString> id, name, arguments;
};
// Streams send one fragment a chunk, or one per call started together; more go the DOM way.
constexpr std::size_t kMaxToolCallFragments = 8;

// What the scan found, as views into the payload; turned into a Chunk once the whole payload
// has proved to be valid JSON.
struct Found {
  std::optional<RawString> id;
  bool has_choice = false;  // choices[0] is an object
  std::optional<RawString> text, reasoning_content, reasoning, content, finish_reason;
  std::array<ToolCallFragment, kMaxToolCallFragments> tool_calls;
  std::size_t tool_call_count = 0;  // fragments of tool_calls that are objects with a function
  bool has_usage = false;           // usage is an object
  std::optional<std::int64_t> prompt_tokens, completion_tokens;
  std::optional<std::int64_t> cached_tokens;  // usage.prompt_tokens_details.cached_tokens
  // usage.completion_tokens_details.reasoning_tokens
  std::optional<std::int64_t> reasoning_tokens;
  std::optional<std::int64_t> timings_prompt_n, timings_cache_n;  // llama.cpp's timings
  bool has_error = false;                                         // a non-null "error"
  RawString error_message;
};

// One pass over the payload. Every member function returns false to give up, at the first byte
// that is invalid JSON or merely unusual; the caller then asks the DOM path.
class Scanner {
 public:
  explicit Scanner(std::string_view data) : p_(data.data()), end_(data.data() + data.size()) {}

  bool scan(Found& found) {
    skip_space();
    if (!at('{')) return false;
    if (!root_object(found)) return false;
    skip_space();
    return p_ == end_;  // nlohmann's strict parse: nothing but whitespace after the value
  }

 private:
  // Keys of the objects the scanner reads, one bit each, to see repeats.
  enum Key : unsigned {
    kId = 1u << 0,
    kChoices = 1u << 1,
    kUsage = 1u << 2,
    kError = 1u << 3,
    kText = 1u << 4,
    kDelta = 1u << 5,
    kFinishReason = 1u << 6,
    kReasoningContent = 1u << 7,
    kReasoning = 1u << 8,
    kContent = 1u << 9,
    kPromptTokens = 1u << 10,
    kCompletionTokens = 1u << 11,
    kMessage = 1u << 12,
    kTimings = 1u << 13,
    kPromptTokensDetails = 1u << 14,
    kCachedTokens = 1u << 15,
    kPromptN = 1u << 16,
    kCacheN = 1u << 17,
    kCompletionTokensDetails = 1u << 18,
    kReasoningTokens = 1u << 19,
    kToolCalls = 1u << 20,
    kFunction = 1u << 21,
    kName = 1u << 22,
    kArguments = 1u << 23,
    kIndex = 1u << 24,
  };

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

  bool root_object(Found& found) {
    unsigned seen = 0;
    return object(1, [&](const RawString& name) {
      const std::string_view k = name.raw;
      if (is(k, "id")) return first_time(name, kId, seen) && optional_string(found.id, 1);
      if (is(k, "choices")) return first_time(name, kChoices, seen) && choices(found);
      if (is(k, "usage")) {
        if (!first_time(name, kUsage, seen)) return false;
        if (!at('{')) return value(1);
        found.has_usage = true;
        return usage_object(found);
      }
      if (is(k, "error")) return first_time(name, kError, seen) && error_value(found);
      if (is(k, "timings")) {
        if (!first_time(name, kTimings, seen)) return false;
        return at('{') ? timings_object(found) : value(1);
      }
      return !name.escaped && value(1);
    });
  }

  bool choices(Found& found) {
    if (!at('[')) return value(1);
    return array(1, [&](std::size_t index) {
      if (index != 0 || !at('{')) return value(2);
      found.has_choice = true;
      return choice_object(found);
    });
  }

  bool choice_object(Found& found) {
    unsigned seen = 0;
    return object(2, [&](const RawString& name) {
      const std::string_view k = name.raw;
      if (is(k, "text")) return first_time(name, kText, seen) && optional_string(found.text, 2);
      if (is(k, "finish_reason")) {
        return first_time(name, kFinishReason, seen) && optional_string(found.finish_reason, 2);
      }
      if (is(k, "delta")) {
        if (!first_time(name, kDelta, seen)) return false;
        return at('{') ? delta_object(found) : value(2);
      }
      return !name.escaped && value(2);
    });
  }

  bool delta_object(Found& found) {
    unsigned seen = 0;
    return object(3, [&](const RawString& name) {
      const std::string_view k = name.raw;
      if (is(k, "content")) {
        return first_time(name, kContent, seen) && optional_string(found.content, 3);
      }
      if (is(k, "reasoning_content")) {
        return first_time(name, kReasoningContent, seen) &&
               optional_string(found.reasoning_content, 3);
      }
      if (is(k, "reasoning")) {
        return first_time(name, kReasoning, seen) && optional_string(found.reasoning, 3);
      }
      if (is(k, "tool_calls")) {
        if (!first_time(name, kToolCalls, seen)) return false;
        return at('[') ? tool_calls_array(found) : value(3);
      }
      return !name.escaped && value(3);
    });
  }

  // delta.tool_calls: [{"index", "id", "type", "function": {"name", "arguments"}}, ...].
  bool tool_calls_array(Found& found) {
    return array(3, [&](std::size_t) {
      if (!at('{')) return value(4);
      return tool_call_object(found);
    });
  }

  // The element counts (as the DOM path's) only when its "function" is an object; its index and
  // id may come before or after it.
  bool tool_call_object(Found& found) {
    if (found.tool_call_count == kMaxToolCallFragments) return false;
    ToolCallFragment& fragment = found.tool_calls[found.tool_call_count];
    fragment = ToolCallFragment{};
    bool has_function = false;
    unsigned seen = 0;
    const bool valid = object(4, [&](const RawString& name) {
      const std::string_view k = name.raw;
      if (is(k, "index")) return first_time(name, kIndex, seen) && count(fragment.index, 4);
      if (is(k, "id")) return first_time(name, kId, seen) && optional_string(fragment.id, 4);
      if (!is(k, "function")) return !name.escaped && value(4);
      if (!first_time(name, kFunction, seen)) return false;
      if (!at('{')) return value(4);
      has_function = true;
      return function_object(fragment);
    });
    if (valid && has_function) ++found.tool_call_count;
    return valid;
  }

  bool function_object(ToolCallFragment& fragment) {
    unsigned seen = 0;
    return object(5, [&](const RawString& name) {
      const std::string_view k = name.raw;
      if (is(k, "name")) return first_time(name, kName, seen) && optional_string(fragment.name, 5);
      if (is(k, "arguments")) {
        return first_time(name, kArguments, seen) && optional_string(fragment.arguments, 5);
      }
      return !name.escaped && value(5);
    });
  }

  bool usage_object(Found& found) {
    unsigned seen = 0;
    return object(2, [&](const RawString& name) {
      const std::string_view k = name.raw;
      if (is(k, "prompt_tokens")) {
        return first_time(name, kPromptTokens, seen) && count(found.prompt_tokens);
      }
      if (is(k, "completion_tokens")) {
        return first_time(name, kCompletionTokens, seen) && count(found.completion_tokens);
      }
      if (is(k, "prompt_tokens_details")) {
        if (!first_time(name, kPromptTokensDetails, seen)) return false;
        return at('{') ? prompt_tokens_details_object(found) : value(2);
      }
      if (is(k, "completion_tokens_details")) {
        if (!first_time(name, kCompletionTokensDetails, seen)) return false;
        return at('{') ? completion_tokens_details_object(found) : value(2);
      }
      return !name.escaped && value(2);
    });
  }

  bool completion_tokens_details_object(Found& found) {
    unsigned seen = 0;
    return object(3, [&](const RawString& name) {
      if (is(name.raw, "reasoning_tokens")) {
        return first_time(name, kReasoningTokens, seen) && count(found.reasoning_tokens, 3);
      }
      return !name.escaped && value(3);
    });
  }

  bool prompt_tokens_details_object(Found& found) {
    unsigned seen = 0;
    return object(3, [&](const RawString& name) {
      if (is(name.raw, "cached_tokens")) {
        return first_time(name, kCachedTokens, seen) && count(found.cached_tokens, 3);
      }
      return !name.escaped && value(3);
    });
  }

  // llama.cpp's final chunk: {"prompt_n": ..., "cache_n": ..., "prompt_ms": ..., ...}.
  bool timings_object(Found& found) {
    unsigned seen = 0;
    return object(2, [&](const RawString& name) {
      const std::string_view k = name.raw;
      if (is(k, "prompt_n")) {
        return first_time(name, kPromptN, seen) && count(found.timings_prompt_n);
      }
      if (is(k, "cache_n")) {
        return first_time(name, kCacheN, seen) && count(found.timings_cache_n);
      }
      return !name.escaped && value(2);
    });
  }

  // "error": null is no error; a string or {"message": "..."} is read; any other value would
  // need the DOM path's rendering of it into the message, so the scanner gives up.
  bool error_value(Found& found) {
    if (at('n')) return literal("null");
    found.has_error = true;
    if (at('"')) return string(found.error_message);
    if (!at('{')) return false;
    bool has_message = false;
    unsigned seen = 0;
    const bool valid = object(2, [&](const RawString& name) {
      if (!is(name.raw, "message")) return !name.escaped && value(2);
      if (!first_time(name, kMessage, seen)) return false;
      if (!at('"')) return value(2);
      has_message = true;
      return string(found.error_message);
    });
    return valid && has_message && !found.error_message.raw.empty();
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

}  // namespace

bool scan_chunk(std::string_view data, Chunk& chunk) {
  Found found;
  if (!Scanner(data).scan(found)) return false;

  chunk.reset();

  // The DOM path's order: a non-null error decides the chunk, whatever else it holds.
  if (found.has_error) {
    chunk.kind = Chunk::Kind::error;
    assign_decoded(chunk.error_message, found.error_message);
    if (chunk.error_message.empty()) chunk.error_message = "error event without a message";
    return true;
  }

  chunk.kind = Chunk::Kind::data;
  if (found.id) assign_decoded(chunk.id, *found.id);
  if (found.has_choice) {
    // reasoning_content when it has text, else reasoning, first: the same order as the DOM
    // path. An escaped string is never empty once decoded, so emptiness can be read from the
    // raw bytes.
    const std::optional<RawString>& reasoning =
        found.reasoning_content && !found.reasoning_content->raw.empty() ? found.reasoning_content
                                                                         : found.reasoning;
    if (reasoning) append_decoded(chunk.text, *reasoning);
    chunk.reasoning_size = chunk.text.size();
    if (found.text) append_decoded(chunk.text, *found.text);
    if (found.content) append_decoded(chunk.text, *found.content);
    for (std::size_t i = 0; i < found.tool_call_count; ++i) {
      const ToolCallFragment& fragment = found.tool_calls[i];
      Chunk::ToolCallFragment& out = chunk.tool_call_fragments.emplace_back();
      out.index = fragment.index;
      if (fragment.id) assign_decoded(out.id, *fragment.id);
      if (fragment.name && !fragment.name->raw.empty()) {
        append_decoded(chunk.tool_call_text, *fragment.name);
        assign_decoded(chunk.tool_call_names.emplace_back(), *fragment.name);
        out.name = chunk.tool_call_names.back();
      }
      if (fragment.arguments) {
        append_decoded(chunk.tool_call_text, *fragment.arguments);
        assign_decoded(out.arguments, *fragment.arguments);
      }
    }
    if (found.finish_reason) assign_decoded(chunk.finish_reason, *found.finish_reason);
  }
  if (found.has_usage) {
    chunk.prompt_tokens = found.prompt_tokens;
    chunk.completion_tokens = found.completion_tokens;
    chunk.reasoning_tokens = found.reasoning_tokens;
    chunk.cached_tokens = found.cached_tokens;
  }
  chunk.timings_prompt_n = found.timings_prompt_n;
  chunk.timings_cache_n = found.timings_cache_n;
  return true;
}

void interpret_chunk_into(std::string_view data, Chunk& chunk) {
  if (!scan_chunk(data, chunk)) chunk = interpret_chunk_dom(data);
}

}  // namespace bench::protocol
