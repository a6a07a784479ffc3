#include "bench/workload/prompt.hpp"

#include <optional>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using bench::workload::chat_messages;
using bench::workload::completion_prompt;
using bench::workload::content_words;
using bench::workload::Prompt;
using nlohmann::json;

TEST(Prompt, PlainTextIsTheCompletionPromptAndTheOnlyUserMessage) {
  Prompt prompt;
  prompt.text = "how are you";
  EXPECT_EQ(completion_prompt(prompt), "how are you");
  EXPECT_EQ(chat_messages(prompt), json::parse(R"([{"role":"user","content":"how are you"}])"));
}

// SGLang's generated-shared-prefix joins system prompt and question with a blank line.
TEST(Prompt, SystemTextPrecedesTheQuestionForCompletionsAndIsTheSystemMessageForChat) {
  Prompt prompt;
  prompt.system_text = "You are terse.";
  prompt.text = "Why?";
  EXPECT_EQ(completion_prompt(prompt), "You are terse.\n\nWhy?");
  EXPECT_EQ(chat_messages(prompt), json::parse(R"([{"role":"system","content":"You are terse."},
                                                   {"role":"user","content":"Why?"}])"));
}

TEST(Prompt, GivenMessagesAreSentToChatAsTheyAre) {
  Prompt prompt;
  prompt.text = "a\n\nb";
  prompt.messages = json::parse(R"([{"role":"user","content":"a"},{"role":"assistant",
                                    "content":"b"},{"role":"user","content":[{"type":"text",
                                    "text":"c"}]}])");
  EXPECT_EQ(chat_messages(prompt), prompt.messages);
  EXPECT_EQ(completion_prompt(prompt), "a\n\nb");
}

TEST(Prompt, ContentWordsReadStringsPartsAndNull) {
  EXPECT_EQ(content_words(json("three words here")), 3);
  EXPECT_EQ(content_words(json()), 0);
  EXPECT_EQ(content_words(json::parse(R"([{"type":"text","text":"a b"},{"type":"image_url",
                                          "image_url":{"url":"x"}},{"type":"text","text":"c"}])")),
            3);
  EXPECT_EQ(content_words(json(5)), std::nullopt);
  EXPECT_EQ(content_words(json::parse(R"(["not a part object"])")), std::nullopt);
}

}  // namespace
