#pragma once
// The word rule bench counts lengths by when it runs without a tokenizer (no --tokenizer, the
// default): the client measures the prompts it builds and reads from datasets in
// whitespace-separated words, and the embedded server, given no --sim-tokenizer, counts prompt
// tokens by the same rule, so a random prompt of N words is N tokens to it. One definition, so
// the two cannot drift apart.
#include <cstdint>
#include <string_view>

namespace bench::util {

/// ASCII whitespace (space, tab, LF, CR, FF, VT): what separates words.
bool is_word_separator(char c);

/// Runs of characters other than ASCII whitespace (space, tab, LF, CR, FF, VT) in `text`.
/// Bytes of multi-byte UTF-8 characters are never whitespace, so they count as word bytes.
std::int64_t count_words(std::string_view text);

}  // namespace bench::util
