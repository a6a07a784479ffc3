#include "bench/results/lengths.hpp"

#include <gtest/gtest.h>

namespace {

using bench::results::check_lengths;
using bench::results::LengthFigures;

LengthFigures chat_in_tokens() {
  LengthFigures figures;
  figures.tokens = true;
  figures.requested_input = 1000;
  figures.template_tokens = 8;
  figures.server_prompt_tokens = 1008;
  figures.requested_output = 100;
  figures.server_completion_tokens = 100;
  figures.ignore_eos = true;
  return figures;
}

TEST(Lengths, content_plus_the_measured_template_is_what_the_server_should_count) {
  const auto check = check_lengths(chat_in_tokens());
  EXPECT_EQ(check.keys["expected_prompt_tokens"], 1008.0);
  EXPECT_EQ(check.keys["input_len_mismatch"], false);
  EXPECT_EQ(check.keys["output_len_mismatch"], false);
  EXPECT_EQ(check.keys["input_len_unit"], "tokens");
  EXPECT_TRUE(check.warnings.empty());
}

TEST(Lengths, a_prompt_beyond_two_percent_of_the_expected_length_is_flagged_and_warned) {
  LengthFigures figures = chat_in_tokens();
  figures.template_included = true;  // then 1008 is 0.8% over 1000: within tolerance
  EXPECT_EQ(check_lengths(figures).keys["input_len_mismatch"], false);
  figures.server_prompt_tokens = 1021;
  const auto check = check_lengths(figures);
  EXPECT_EQ(check.keys["input_len_mismatch"], true);
  ASSERT_EQ(check.warnings.size(), 1u);
  EXPECT_NE(check.warnings[0].find("input_len_mismatch"), std::string::npos);
}

// llama.cpp counted 33 prompt tokens for --input-len 32 on completions: the BOS its tokenizer
// adds, which bench's content-only prompts leave out. Expected, it is no mismatch.
TEST(Lengths, the_special_tokens_a_completions_prompt_gets_are_expected) {
  LengthFigures figures;
  figures.tokens = true;
  figures.requested_input = 32;
  figures.server_prompt_tokens = 33;
  EXPECT_EQ(check_lengths(figures).keys["input_len_mismatch"], true);  // unknown: a mismatch
  EXPECT_TRUE(check_lengths(figures).keys["prompt_special_tokens"].is_null());
  figures.special_tokens = 1;
  const auto check = check_lengths(figures);
  EXPECT_EQ(check.keys["prompt_special_tokens"], 1.0);
  EXPECT_EQ(check.keys["expected_prompt_tokens"], 33.0);
  EXPECT_EQ(check.keys["input_len_mismatch"], false);
  EXPECT_TRUE(check.warnings.empty());
  figures.server_prompt_tokens = 35;
  const auto over = check_lengths(figures);
  ASSERT_EQ(over.warnings.size(), 1u);
  EXPECT_NE(over.warnings[0].find("33.0 expected (32.0 tokens requested + 1 special (BOS) the "
                                  "tokenizer adds)"),
            std::string::npos)
      << over.warnings[0];
}

TEST(Lengths, ignore_eos_runs_that_end_short_are_flagged_and_others_are_not) {
  LengthFigures figures = chat_in_tokens();
  figures.server_completion_tokens = 90;
  EXPECT_EQ(check_lengths(figures).keys["output_len_mismatch"], true);
  figures.ignore_eos = false;  // a model may stop early
  EXPECT_EQ(check_lengths(figures).keys["output_len_mismatch"], false);
  figures.server_completion_tokens = 110;  // beyond max_tokens: always wrong
  EXPECT_EQ(check_lengths(figures).keys["output_len_mismatch"], true);
}

TEST(Lengths, without_usage_the_tokenizers_output_count_is_held_against_max_tokens) {
  LengthFigures figures = chat_in_tokens();
  figures.server_completion_tokens.reset();
  figures.tokenizer_completion_tokens = 80;  // an --ignore-eos run that ended short
  const auto check = check_lengths(figures);
  EXPECT_EQ(check.keys["output_len_mismatch"], true);
  ASSERT_EQ(check.warnings.size(), 1u);
  EXPECT_NE(check.warnings[0].find("the tokenizer counted 80.0 tokens"), std::string::npos)
      << check.warnings[0];
  figures.tokenizer_completion_tokens = 100;
  EXPECT_EQ(check_lengths(figures).keys["output_len_mismatch"], false);
}

TEST(Lengths, unknown_server_counts_leave_the_flags_unknown) {
  LengthFigures figures = chat_in_tokens();
  figures.server_prompt_tokens.reset();
  figures.server_completion_tokens.reset();
  figures.template_tokens.reset();
  const auto check = check_lengths(figures);
  EXPECT_TRUE(check.keys["input_len_mismatch"].is_null());
  EXPECT_TRUE(check.keys["output_len_mismatch"].is_null());
  EXPECT_TRUE(check.keys["chat_template_tokens"].is_null());
}

}  // namespace
