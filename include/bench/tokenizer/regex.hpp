#pragma once
// A compiled PCRE2 pattern (UTF and Unicode properties on, JIT when the platform has it), for
// the pre-tokenizers' `Split` patterns, which Hugging Face tokenizers runs through Oniguruma:
// both read \p{L}, \p{N}, \s and lookahead the same way on valid UTF-8.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bench::tokenizer {

class Regex {
 public:
  enum class Syntax { pattern, literal };

  /// Throws TokenizerError naming the pattern and PCRE2's message when it does not compile.
  Regex(std::string_view pattern, Syntax syntax);

  /// The [begin, end) byte ranges of the non-empty, non-overlapping matches in `subject`,
  /// left to right. `subject` must be valid UTF-8.
  std::vector<std::pair<std::size_t, std::size_t>> find_all(std::string_view subject) const;

 private:
  struct CodeDeleter {
    void operator()(void* code) const;
  };
  std::unique_ptr<void, CodeDeleter> code_;  // pcre2_code_8, kept opaque to callers
};

}  // namespace bench::tokenizer
