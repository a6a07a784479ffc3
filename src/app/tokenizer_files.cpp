#include "bench/app/tokenizer_files.hpp"

namespace bench::app {

// The native tokenizer.json reader is a module of its own (load_hf_tokenizer); until it is
// linked here every file is refused, before anything is served or sent.
std::shared_ptr<const tokenizer::Tokenizer> open_tokenizer_file(const std::string& path) {
  throw tokenizer::TokenizerError(path + ": the native tokenizer is not built yet");
}

}  // namespace bench::app
