#define PCRE2_CODE_UNIT_WIDTH 8
#include "bench/tokenizer/regex.hpp"

#include <pcre2.h>

#include "bench/tokenizer/tokenizer.hpp"
#include "bench/tokenizer/utf8.hpp"
#include "bench/util/utf8.hpp"

namespace bench::tokenizer {
namespace {

pcre2_code* as_code(void* code) { return static_cast<pcre2_code*>(code); }

struct MatchDataDeleter {
  void operator()(pcre2_match_data* data) const { pcre2_match_data_free(data); }
};

}  // namespace

void Regex::CodeDeleter::operator()(void* code) const { pcre2_code_free(as_code(code)); }

Regex::Regex(std::string_view pattern, Syntax syntax) {
  // PCRE2 refuses UCP beside LITERAL; a literal needs no character properties.
  const std::uint32_t options = PCRE2_UTF | (syntax == Syntax::literal ? PCRE2_LITERAL : PCRE2_UCP);
  int error = 0;
  PCRE2_SIZE error_offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   options, &error, &error_offset, nullptr);
  if (code == nullptr) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(error, message, sizeof message);
    throw TokenizerError("the pattern '" + std::string(pattern) +
                         "' does not compile (PCRE2: " + reinterpret_cast<const char*>(message) +
                         " at offset " + std::to_string(error_offset) + ")");
  }
  code_.reset(code);
  // Without JIT (a platform PCRE2 lacks it for) the interpreter gives the same matches, slower.
  pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
}

std::vector<std::pair<std::size_t, std::size_t>> Regex::find_all(std::string_view subject) const {
  std::vector<std::pair<std::size_t, std::size_t>> matches;
  std::unique_ptr<pcre2_match_data, MatchDataDeleter> data(
      pcre2_match_data_create_from_pattern(as_code(code_.get()), nullptr));
  const auto* bytes = reinterpret_cast<PCRE2_SPTR>(subject.data());
  std::size_t at = 0;
  while (at < subject.size()) {
    // The caller guarantees valid UTF-8 (utf8::to_valid), so PCRE2's own check is skipped.
    const int found = pcre2_match(as_code(code_.get()), bytes, subject.size(), at,
                                  PCRE2_NO_UTF_CHECK, data.get(), nullptr);
    if (found < 0) break;
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data.get());
    const std::size_t begin = ovector[0];
    const std::size_t end = ovector[1];
    if (end > begin) {
      matches.emplace_back(begin, end);
      at = end;
    } else {
      const std::size_t length = util::utf8_sequence_length(subject, begin);
      at = begin + (length == 0 ? 1 : length);  // an empty match: step over one character
    }
  }
  return matches;
}

}  // namespace bench::tokenizer
