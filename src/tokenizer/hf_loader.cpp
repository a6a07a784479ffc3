#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bench/tokenizer/hf_tokenizer.hpp"

namespace bench::tokenizer {
namespace {

// Older files leave out "type" for BPE (tokenizers reads the model untagged).
std::string model_type(const nlohmann::json& config) {
  const auto& model = config.at("model");
  if (model.contains("type")) return model.at("type").get<std::string>();
  return model.contains("merges") ? "BPE" : "(none)";
}

}  // namespace

std::unique_ptr<Tokenizer> parse_hf_tokenizer(std::string_view json_text, const std::string& name) {
  nlohmann::json config;
  try {
    config = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::parse_error& error) {
    if (error.byte >= json_text.size()) {
      throw TokenizerError(name + ": truncated: the JSON ends after " +
                           std::to_string(json_text.size()) + " bytes");
    }
    throw TokenizerError(name + ": not JSON: " + error.what());
  }
  try {
    if (!config.is_object() || !config.contains("model")) {
      throw TokenizerError("not a tokenizer.json: no \"model\"");
    }
    const std::string type = model_type(config);
    if (type != "BPE") {
      throw TokenizerError("unsupported model type '" + type +
                           "' (bench reads BPE: byte-level or SentencePiece-style)");
    }
    return std::make_unique<HfTokenizer>(config, name);
  } catch (const TokenizerError& error) {
    throw TokenizerError(name + ": " + error.what());
  } catch (const nlohmann::json::exception& error) {
    throw TokenizerError(name + ": not a tokenizer.json this bench understands: " + error.what());
  }
}

std::unique_ptr<Tokenizer> load_hf_tokenizer(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw TokenizerError(path.string() + ": cannot open the tokenizer file");
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) throw TokenizerError(path.string() + ": cannot read the tokenizer file");
  return parse_hf_tokenizer(text.str(), path.string());
}

}  // namespace bench::tokenizer
