#pragma once
// The UTF-8 steps the tokenizer needs beyond walking text (util::utf8_sequence_length, the one
// owner of a sequence's length): decoding code points, and making any byte string valid the way
// Rust's String::from_utf8_lossy does (Hugging Face tokenizers only ever sees valid text, so
// bench repairs invalid input the same way before encoding).
#include <cstddef>
#include <string>
#include <string_view>

namespace bench::tokenizer::utf8 {

bool is_valid(std::string_view text);

/// `text` with each maximal invalid subsequence replaced by U+FFFD (from_utf8_lossy's rule).
std::string to_valid(std::string_view text);

/// The code point of the valid sequence of `length` bytes at `text[at]`.
char32_t decode_at(std::string_view text, std::size_t at, std::size_t length);

void append(std::string& out, char32_t code_point);

}  // namespace bench::tokenizer::utf8
