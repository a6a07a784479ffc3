#include "bench/tokenizer/normalizer.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bench/tokenizer/tokenizer.hpp"

namespace {

using bench::tokenizer::make_normalizer;
using nlohmann::json;

std::string normalize(const json& config, std::string text) {
  make_normalizer(config)->normalize(text);
  return text;
}

const json kLlama2 = {
    {"type", "Sequence"},
    {"normalizers",
     {{{"type", "Prepend"}, {"prepend", "\u2581"}},
      {{"type", "Replace"}, {"pattern", {{"String", " "}}}, {"content", "\u2581"}}}}};

TEST(Normalizer, prepends_the_marker_and_writes_spaces_as_markers) {
  EXPECT_EQ(normalize(kLlama2, "Hello  world"), "\u2581Hello\u2581\u2581world");
}

TEST(Normalizer, leaves_empty_text_empty) { EXPECT_EQ(normalize(kLlama2, ""), ""); }

TEST(Normalizer, composes_to_nfc) { EXPECT_EQ(normalize({{"type", "NFC"}}, "e\u0301"), "\u00E9"); }

TEST(Normalizer, takes_an_empty_sequence_as_no_normalizer) {
  EXPECT_EQ(make_normalizer({{"type", "Sequence"}, {"normalizers", json::array()}}), nullptr);
  EXPECT_EQ(make_normalizer(nullptr), nullptr);
}

TEST(Normalizer, refuses_a_type_it_does_not_know_naming_it) {
  try {
    make_normalizer({{"type", "Precompiled"}});
    FAIL() << "no error";
  } catch (const bench::tokenizer::TokenizerError& error) {
    EXPECT_STREQ(error.what(), "unsupported normalizer 'Precompiled'");
  }
}

}  // namespace
