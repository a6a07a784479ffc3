// The servers' wordings of a context overflow, each as its server sends it, and refusals that
// are not one.
#include "bench/protocol/context_overflow.hpp"

#include <gtest/gtest.h>

namespace {

using bench::protocol::is_context_overflow;

TEST(ContextOverflow, ReadsVllmsRefusals) {
  // vllm/entrypoints/openai/serving_engine.py, the input check before the engine.
  EXPECT_TRUE(is_context_overflow(
      R"({"object":"error","message":"This model's maximum context length is 32768 tokens. )"
      R"(However, your request has 40000 input tokens. Please reduce the length of the input )"
      R"(messages.","type":"BadRequestError","param":null,"code":400})"));
  // vllm/v1/engine/processor.py.
  EXPECT_TRUE(is_context_overflow(
      R"({"error":{"message":"The decoder prompt (length 40000) is longer than the maximum )"
      R"(model length of 32768. Make sure that `max_model_len` is no smaller than the number )"
      R"(of text tokens.","type":"BadRequestError","code":400}})"));
}

TEST(ContextOverflow, ReadsSglangsRefusals) {
  EXPECT_TRUE(is_context_overflow(
      R"({"object":"error","message":"The input (40000 tokens) is longer than the model's )"
      R"(context length (32768 tokens).","type":"BadRequestError","code":400})"));
  EXPECT_TRUE(is_context_overflow(
      R"({"error":{"message":"Input length (31996 tokens) exceeds the maximum allowed length )"
      R"((31994 tokens). Use a shorter input or enable --allow-auto-truncate."}})"));
  EXPECT_TRUE(is_context_overflow(
      "Requested token count exceeds the model's maximum context length of 32768 tokens."));
}

TEST(ContextOverflow, ReadsOpenAiLlamaCppAndAnthropicRefusals) {
  EXPECT_TRUE(is_context_overflow(
      R"({"error":{"message":"Your input exceeds the context window of this model.",)"
      R"("type":"invalid_request_error","param":"input","code":"context_length_exceeded"}})"));
  EXPECT_TRUE(is_context_overflow(
      R"({"error":{"code":400,"message":"the request exceeds the available context size, try )"
      R"(increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":8192}})"));
  EXPECT_TRUE(is_context_overflow(
      R"({"type":"error","error":{"type":"invalid_request_error","message":"prompt is too )"
      R"(long: 210000 tokens > 200000 maximum"}})"));
}

TEST(ContextOverflow, IgnoresCase) {
  EXPECT_TRUE(is_context_overflow("THIS MODEL'S MAXIMUM CONTEXT LENGTH IS 4096 TOKENS"));
}

TEST(ContextOverflow, OtherRefusalsAreNotOverflows) {
  EXPECT_FALSE(is_context_overflow(""));
  EXPECT_FALSE(is_context_overflow(R"({"detail":"Not Found"})"));
  EXPECT_FALSE(is_context_overflow(
      R"({"object":"error","message":"The model `gpt-4` does not exist.","code":404})"));
  EXPECT_FALSE(is_context_overflow(R"({"error":{"message":"temperature must be at least 0"}})"));
  EXPECT_FALSE(is_context_overflow("context length 4096"));  // a length, not a refusal of one
}

}  // namespace
