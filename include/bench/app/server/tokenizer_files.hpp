#pragma once
// The one place a tokenizer file becomes a Tokenizer, for the client (--tokenizer PATH) and the
// simulator (serve-sim --tokenizer PATH, --sim-tokenizer PATH) alike.
#include <memory>
#include <string>

#include "bench/tokenizer/tokenizer.hpp"

namespace bench::app {

/// Opens a Hugging Face tokenizer.json. Throws tokenizer::TokenizerError (one line naming the
/// file and what is wrong or unsupported).
std::shared_ptr<const tokenizer::Tokenizer> open_tokenizer_file(const std::string& path);

}  // namespace bench::app
