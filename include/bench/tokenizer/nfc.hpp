#pragma once
// Unicode Normalization Form C (UAX #15), the normalizer Qwen's tokenizer.json asks for.
#include <string>
#include <string_view>

namespace bench::tokenizer {

/// `text` (valid UTF-8) in NFC. Text that holds no code point NFC could change (the common
/// case) is returned as it is after one scan.
std::string to_nfc(std::string_view text);

}  // namespace bench::tokenizer
