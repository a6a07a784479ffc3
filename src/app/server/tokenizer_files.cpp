#include "bench/app/server/tokenizer_files.hpp"

#include "bench/tokenizer/hf_tokenizer.hpp"

namespace bench::app {

// The native tokenizer.json reader (bench/tokenizer/hf_tokenizer.hpp): refuses, with one line
// naming the file and the part, whatever it cannot honour, before anything is served or sent.
std::shared_ptr<const tokenizer::Tokenizer> open_tokenizer_file(const std::string& path) {
  return tokenizer::load_hf_tokenizer(path);
}

}  // namespace bench::app
