#include "bench/sim/tokenize_routes.hpp"

#include "bench/sim/completion_request.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using bench::sim::answer_tokenize_route;
using bench::sim::ChatTemplate;
using bench::sim::PromptCounter;
using bench::sim::TokenizeDialect;
using nlohmann::json;

const PromptCounter kLlama2(nullptr, ChatTemplate::llama2);
const json kChat = json::array({{{"role", "user"}, {"content", "one two three"}}});

json answer(TokenizeDialect dialect, const std::string& path, const json& body,
            int expected_status = 200) {
  const auto reply = answer_tokenize_route("POST", path, body.dump(), dialect, kLlama2, 4096);
  EXPECT_TRUE(reply.has_value());
  if (!reply) return nullptr;
  EXPECT_EQ(reply->status, expected_status) << reply->body;
  return json::parse(reply->body);
}

json content_only(const std::string& prompt) {
  return {{"prompt", prompt}, {"add_special_tokens", false}};
}

TEST(TokenizeRoutes, vllm_counts_a_prompt_by_the_word_rule_with_stable_ids) {
  const json first = answer(TokenizeDialect::vllm, "/tokenize", content_only("alpha beta  gamma"));
  EXPECT_EQ(first["count"], 3);
  EXPECT_EQ(first["max_model_len"], 4096);
  EXPECT_EQ(answer(TokenizeDialect::vllm, "/tokenize", content_only("alpha beta gamma"))["tokens"],
            first["tokens"]);
  EXPECT_EQ(first["tokens"][0],
            answer(TokenizeDialect::vllm, "/tokenize", content_only("alpha"))["tokens"][0]);
}

// A completions prompt is counted with the model's BOS (llama-2's here), and /tokenize says so
// when asked to add special tokens: vLLM by default, llama.cpp with add_special. The two counts
// are one rule's, so a client measuring the BOS by /tokenize expects what usage says.
TEST(TokenizeRoutes, the_bos_a_completions_prompt_gets_is_the_one_tokenize_adds_when_asked) {
  const auto parsed = bench::sim::parse_completion_request(json{{"prompt", "one two three"}}.dump(),
                                                           /*chat=*/false, kLlama2);
  ASSERT_TRUE(parsed.request);
  EXPECT_EQ(parsed.request->prompt_tokens, 4);
  const json vllm = answer(TokenizeDialect::vllm, "/tokenize", {{"prompt", "one two three"}});
  EXPECT_EQ(vllm["count"], 4);
  EXPECT_EQ(vllm["tokens"][0], bench::sim::kBosId);
  EXPECT_EQ(answer(TokenizeDialect::llamacpp, "/tokenize",
                   {{"content", "one two three"}, {"add_special", true}})["tokens"]
                .size(),
            4u);
  EXPECT_EQ(answer(TokenizeDialect::llamacpp, "/tokenize", {{"content", "one two three"}})["tokens"]
                .size(),
            3u);
  // A model without a BOS (no template, the word rule) adds none.
  const PromptCounter plain(nullptr, ChatTemplate::none);
  const auto reply =
      answer_tokenize_route("POST", "/tokenize", json{{"prompt", "one two three"}}.dump(),
                            TokenizeDialect::vllm, plain, 4096);
  ASSERT_TRUE(reply);
  EXPECT_EQ(json::parse(reply->body)["count"], 3);
}

TEST(TokenizeRoutes, vllm_counts_chat_messages_with_the_template_as_completions_do) {
  const json reply = answer(TokenizeDialect::vllm, "/tokenize", {{"messages", kChat}});
  EXPECT_EQ(reply["count"], 6);  // BOS, [INST], three words, [/INST]
  EXPECT_EQ(reply["tokens"][0], bench::sim::kBosId);
  const auto parsed = bench::sim::parse_completion_request(json{{"messages", kChat}}.dump(),
                                                           /*chat=*/true, kLlama2);
  ASSERT_TRUE(parsed.request);
  EXPECT_EQ(parsed.request->prompt_tokens, 6);
}

TEST(TokenizeRoutes, llamacpp_tokenizes_content_and_applies_the_template_without_bos) {
  EXPECT_EQ(answer(TokenizeDialect::llamacpp, "/tokenize", {{"content", "a b"}})["tokens"].size(),
            2u);
  EXPECT_EQ(answer(TokenizeDialect::llamacpp, "/tokenize", {{"prompt", "a b"}})["tokens"],
            json::array());  // llama.cpp reads "content" only
  const json applied = answer(TokenizeDialect::llamacpp, "/apply-template", {{"messages", kChat}});
  EXPECT_EQ(applied["prompt"], "[INST] one two three [/INST]");
  const json with_bos = answer(TokenizeDialect::llamacpp, "/tokenize",
                               {{"content", applied["prompt"]}, {"add_special", true}});
  EXPECT_EQ(with_bos["tokens"].size(), 6u);
}

TEST(TokenizeRoutes, tgi_answers_a_list_of_tokens_and_requires_inputs) {
  const json reply = answer(TokenizeDialect::tgi, "/tokenize", {{"inputs", "x y z"}});
  ASSERT_TRUE(reply.is_array());
  // The llama-2 model's BOS first, with the empty span TGI gives a special token, then the
  // three words, each with a span of its own.
  ASSERT_EQ(reply.size(), 4u);
  EXPECT_EQ(reply[0]["id"], bench::sim::kBosId);
  EXPECT_EQ(reply[0]["start"], reply[0]["stop"]);
  for (std::size_t i = 1; i < reply.size(); ++i) EXPECT_LT(reply[i]["start"], reply[i]["stop"]);
  const json content = answer(TokenizeDialect::tgi, "/tokenize",
                              {{"inputs", "x y z"}, {"add_special_tokens", false}});
  ASSERT_EQ(content.size(), 3u);
  EXPECT_EQ(content[0]["id"], reply[1]["id"]);
  answer(TokenizeDialect::tgi, "/tokenize", {{"prompt", "x"}}, 422);
}

// A tokenizer that counts every byte but a space: a newline between messages would count.
class NonSpaceTokenizer final : public bench::tokenizer::Tokenizer {
 public:
  std::vector<bench::tokenizer::TokenId> encode(std::string_view text) const override {
    std::vector<bench::tokenizer::TokenId> ids;
    for (const char c : text) {
      if (c != ' ') ids.push_back(static_cast<unsigned char>(c));
    }
    return ids;
  }
  std::string decode(const std::vector<bench::tokenizer::TokenId>&) const override { return {}; }
  const std::vector<std::string>& special_tokens() const override { return none_; }
  const std::string& description() const override { return description_; }

 private:
  std::vector<std::string> none_;
  std::string description_ = "bytes";
};

// With no template a chat prompt is its messages' content, each counted by itself: the blank
// line /apply-template joins them with is no content (a recorded agent's request is exactly its
// messages' tokens: workload/agent_block_text.hpp).
TEST(TokenizeRoutes, without_a_template_each_messages_content_is_counted_by_itself) {
  const PromptCounter counter(std::make_shared<NonSpaceTokenizer>(), ChatTemplate::none);
  const json chat = json::array({{{"role", "system"}, {"content", "ab c"}},
                                 {{"role", "user"}, {"content", "de"}},
                                 {{"role", "assistant"}, {"content", "f"}}});
  EXPECT_EQ(counter.count_chat(chat), 6);
  ASSERT_TRUE(counter.encode_chat(chat));
  EXPECT_EQ(counter.encode_chat(chat)->size(), 6u);
  const auto parsed = bench::sim::parse_completion_request(json{{"messages", chat}}.dump(),
                                                           /*chat=*/true, counter);
  ASSERT_TRUE(parsed.request);
  EXPECT_EQ(parsed.request->prompt_tokens, 6);
  EXPECT_EQ(counter.render_chat(chat), "ab c\n\nde\n\nf");
}

TEST(TokenizeRoutes, no_route_without_a_dialect_or_off_the_paths) {
  EXPECT_FALSE(answer_tokenize_route("POST", "/tokenize", "{}", TokenizeDialect::none, kLlama2, 1));
  EXPECT_FALSE(
      answer_tokenize_route("POST", "/apply-template", "{}", TokenizeDialect::vllm, kLlama2, 1));
  EXPECT_FALSE(answer_tokenize_route("POST", "/v1/x", "{}", TokenizeDialect::vllm, kLlama2, 1));
}

}  // namespace
