#include "bench/tokenizer/normalizer.hpp"

#include <vector>

#include <nlohmann/json.hpp>

#include "bench/tokenizer/nfc.hpp"
#include "bench/tokenizer/tokenizer.hpp"

namespace bench::tokenizer {
namespace {

class Nfc final : public Normalizer {
 public:
  void normalize(std::string& text) const override { text = to_nfc(text); }
};

class Prepend final : public Normalizer {
 public:
  explicit Prepend(std::string prefix) : prefix_(std::move(prefix)) {}
  void normalize(std::string& text) const override {
    if (!text.empty()) text.insert(0, prefix_);  // prepend.rs: empty text stays empty
  }

 private:
  std::string prefix_;
};

class Replace final : public Normalizer {
 public:
  Replace(std::string pattern, std::string content)
      : pattern_(std::move(pattern)), content_(std::move(content)) {}
  void normalize(std::string& text) const override {
    if (text.find(pattern_) == std::string::npos) return;
    std::string out;
    out.reserve(text.size() + text.size() / 2);
    std::size_t at = 0;
    for (std::size_t found; (found = text.find(pattern_, at)) != std::string::npos;
         at = found + pattern_.size()) {
      out.append(text, at, found - at);
      out += content_;
    }
    out.append(text, at);
    text = std::move(out);
  }

 private:
  std::string pattern_;
  std::string content_;
};

class NormalizerSequence final : public Normalizer {
 public:
  explicit NormalizerSequence(std::vector<std::unique_ptr<Normalizer>> steps)
      : steps_(std::move(steps)) {}
  void normalize(std::string& text) const override {
    for (const auto& step : steps_) step->normalize(text);
  }

 private:
  std::vector<std::unique_ptr<Normalizer>> steps_;
};

std::unique_ptr<Normalizer> make_replace(const nlohmann::json& config) {
  const auto& pattern = config.at("pattern");
  if (!pattern.contains("String")) {
    throw TokenizerError("unsupported normalizer 'Replace' with a Regex pattern");
  }
  auto text = pattern.at("String").get<std::string>();
  if (text.empty()) throw TokenizerError("unsupported normalizer 'Replace' of an empty string");
  return std::make_unique<Replace>(std::move(text), config.at("content").get<std::string>());
}

}  // namespace

std::unique_ptr<Normalizer> make_normalizer(const nlohmann::json& config) {
  if (config.is_null()) return nullptr;
  const auto type = config.at("type").get<std::string>();
  if (type == "Sequence") {
    std::vector<std::unique_ptr<Normalizer>> steps;
    for (const auto& step : config.at("normalizers")) {
      if (auto made = make_normalizer(step)) steps.push_back(std::move(made));
    }
    if (steps.empty()) return nullptr;
    if (steps.size() == 1) return std::move(steps.front());
    return std::make_unique<NormalizerSequence>(std::move(steps));
  }
  if (type == "NFC") return std::make_unique<Nfc>();
  if (type == "Prepend") return std::make_unique<Prepend>(config.at("prepend").get<std::string>());
  if (type == "Replace") return make_replace(config);
  throw TokenizerError("unsupported normalizer '" + type + "'");
}

}  // namespace bench::tokenizer
