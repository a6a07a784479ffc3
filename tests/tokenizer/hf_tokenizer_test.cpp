#include "bench/tokenizer/hf_tokenizer.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using bench::tokenizer::TokenId;
using bench::tokenizer::TokenizerError;
using nlohmann::json;

// A byte-level tokenizer small enough to reason about: "Hello", " world" and their letters.
json tiny_byte_level() {
  json vocab = json::object();
  TokenId next = 0;
  for (const char* token : {"H", "e", "l", "o", "\u0120", "w", "r", "d", "He", "ll", "llo", "Hello",
                            "\u0120w", "or", "\u0120wor", "\u0120world"}) {
    vocab[token] = next++;
  }
  return {
      {"version", "1.0"},
      {"added_tokens",
       {{{"id", 100},
         {"content", "<|end|>"},
         {"single_word", false},
         {"lstrip", false},
         {"rstrip", false},
         {"normalized", false},
         {"special", true}}}},
      {"normalizer", nullptr},
      {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}}},
      {"decoder", {{"type", "ByteLevel"}}},
      {"model",
       {{"type", "BPE"},
        {"vocab", vocab},
        {"merges", {"H e", "l l", "ll o", "He llo", "\u0120 w", "o r", "\u0120w or"}}}}};
}

std::string error_of(std::string_view text) {
  try {
    bench::tokenizer::parse_hf_tokenizer(text, "t.json");
  } catch (const TokenizerError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(HfTokenizer, encodes_and_decodes_through_the_whole_pipeline) {
  const auto tokenizer = bench::tokenizer::parse_hf_tokenizer(tiny_byte_level().dump(), "t.json");
  // " world" stops at " wor" + "l" + "d": no merge of the file goes further.
  EXPECT_EQ(tokenizer->encode("Hello world<|end|>Hello"),
            (std::vector<TokenId>{11, 14, 2, 7, 100, 11}));
  EXPECT_EQ(tokenizer->decode(tokenizer->encode("Hello world<|end|>Hello")),
            "Hello world<|end|>Hello");
  EXPECT_EQ(tokenizer->count("Hello Hello"), 3u);
  EXPECT_EQ(tokenizer->special_tokens(), std::vector<std::string>{"<|end|>"});
  EXPECT_EQ(tokenizer->description(), "t.json: byte-level BPE, 101 tokens");
}

// A server encoding a completions prompt adds what the post_processor says (llama-2's and
// Gemma's TemplateProcessing: BOS); encode() stays content only, so a prompt of N tokens
// arrives as N + added_special_tokens().
TEST(HfTokenizer, counts_the_special_tokens_its_post_processor_adds_to_a_prompt) {
  json with_bos = tiny_byte_level();
  with_bos["post_processor"] = {
      {"type", "TemplateProcessing"},
      {"single",
       {{{"SpecialToken", {{"id", "<|end|>"}, {"type_id", 0}}}},
        {{"Sequence", {{"id", "A"}, {"type_id", 0}}}}}},
      {"pair", json::array()},
      {"special_tokens",
       {{"<|end|>", {{"id", "<|end|>"}, {"ids", {100}}, {"tokens", {"<|end|>"}}}}}}};
  const auto bos = bench::tokenizer::parse_hf_tokenizer(with_bos.dump(), "t.json");
  EXPECT_EQ(bos->added_special_tokens(), 1u);
  EXPECT_EQ(bos->count("Hello Hello"), 3u);  // content only
  json sequence = tiny_byte_level();
  sequence["post_processor"] = {
      {"type", "Sequence"}, {"processors", {{{"type", "ByteLevel"}}, with_bos["post_processor"]}}};
  EXPECT_EQ(bench::tokenizer::parse_hf_tokenizer(sequence.dump(), "t.json")->added_special_tokens(),
            1u);
  json byte_level = tiny_byte_level();
  byte_level["post_processor"] = {{"type", "ByteLevel"}};
  EXPECT_EQ(
      bench::tokenizer::parse_hf_tokenizer(byte_level.dump(), "t.json")->added_special_tokens(),
      0u);
  EXPECT_EQ(bench::tokenizer::parse_hf_tokenizer(tiny_byte_level().dump(), "t.json")
                ->added_special_tokens(),
            0u);
}

TEST(HfTokenizer, repairs_invalid_utf8_before_encoding) {
  const auto tokenizer = bench::tokenizer::parse_hf_tokenizer(tiny_byte_level().dump(), "t.json");
  EXPECT_NO_THROW(tokenizer->encode("Hello \xFF\xC3"));
}

TEST(HfTokenizer, refuses_a_missing_file_naming_it) {
  try {
    bench::tokenizer::load_hf_tokenizer("/nonexistent/tokenizer.json");
    FAIL() << "no error";
  } catch (const TokenizerError& error) {
    EXPECT_STREQ(error.what(), "/nonexistent/tokenizer.json: cannot open the tokenizer file");
  }
}

TEST(HfTokenizer, says_a_truncated_file_is_truncated) {
  const std::string whole = tiny_byte_level().dump();
  EXPECT_EQ(
      error_of(whole.substr(0, whole.size() / 2)),
      "t.json: truncated: the JSON ends after " + std::to_string(whole.size() / 2) + " bytes");
}

TEST(HfTokenizer, says_a_file_that_is_not_json_is_not_json) {
  EXPECT_EQ(error_of("<html>not found</html>").rfind("t.json: not JSON: ", 0), 0u);
  EXPECT_EQ(error_of("[1, 2]"), "t.json: not a tokenizer.json: no \"model\"");
}

TEST(HfTokenizer, refuses_an_unsupported_model_type_naming_it_in_one_line) {
  json config = tiny_byte_level();
  config["model"] = {{"type", "Unigram"}, {"vocab", json::array()}};
  const std::string error = error_of(config.dump());
  EXPECT_EQ(error,
            "t.json: unsupported model type 'Unigram' (bench reads BPE: byte-level or "
            "SentencePiece-style)");
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

TEST(HfTokenizer, refuses_an_unsupported_part_naming_the_file_and_the_part) {
  json config = tiny_byte_level();
  config["normalizer"] = {{"type", "NFKC"}};
  EXPECT_EQ(error_of(config.dump()), "t.json: unsupported normalizer 'NFKC'");
  config = tiny_byte_level();
  config["pre_tokenizer"] = {{"type", "Whitespace"}};
  EXPECT_EQ(error_of(config.dump()), "t.json: unsupported pre-tokenizer 'Whitespace'");
  config = tiny_byte_level();
  config["decoder"] = {{"type", "CTC"}};
  EXPECT_EQ(error_of(config.dump()), "t.json: unsupported decoder 'CTC'");
}

TEST(HfTokenizer, reads_a_file_from_disk) {
  const fs::path path = fs::temp_directory_path() / "bench_hf_tokenizer_test.json";
  std::ofstream(path) << tiny_byte_level().dump();
  const auto tokenizer = bench::tokenizer::load_hf_tokenizer(path);
  EXPECT_EQ(tokenizer->encode("Hello"), std::vector<TokenId>{11});
  fs::remove(path);
}

}  // namespace
