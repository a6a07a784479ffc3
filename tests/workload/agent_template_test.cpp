// Recorded agent requests in a real tokenizer's tokens, through a real chat template: the
// template adds its tokens between messages, never inside one, so every block boundary of every
// message stays where its tokens say in the prompt the server encodes. The templates are the
// models' own (tokenizer_config.json's chat_template of Llama-3, Qwen3, DeepSeek-V3 and Gemma-3,
// rendered by Jinja2 as transformers, vLLM and SGLang render them: chat_template.py) and
// llama.cpp's llama-2 framing (src/llama-chat.cpp, LLM_CHAT_TEMPLATE_LLAMA_2: the
// /apply-template answer captured in tests/data/server-api) with Llama-2's tokenizer.
//
// What the template adds before a message is measured on a skeleton of the same roles whose
// messages are one short piece each: where the skeleton's message j ends, its tokens less its
// contents' are the template's so far; a request's every block end must then be that plus the
// contents before it, and the encoding there a prefix of the whole prompt's.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent_pieces.hpp"
#include "bench/workload/agent_history.hpp"
#include "data_dirs.hpp"
#include "real_tokenizers.hpp"
#include "run_process.hpp"

namespace agent_template_test {

using bench::tokenizer::TokenId;
using bench::tokenizer::Tokenizer;
using nlohmann::json;

constexpr char kEnd = '\x01';  // marks a piece's end in a message; taken out after rendering

// The conversations a template is tried on: each request of the made-up session with a mark at
// every piece's end, and its skeleton (same roles, each message one piece: "k1 the").
struct Conversations {
  json marked = json::array();
  json skeletons = json::array();
  std::vector<std::vector<std::int64_t>> lengths;  // each request's pieces, in tokens
};

json marked_messages(const json& messages) {
  json out = json::array();
  for (const json& message : messages) {
    std::string content = message["content"].get<std::string>();
    const std::vector<std::size_t> ends = bench::testing::piece_ends(content);
    for (auto end = ends.rbegin(); end != ends.rend(); ++end) content.insert(*end, 1, kEnd);
    out.push_back({{"role", message["role"]}, {"content", content}});
  }
  return out;
}

json skeleton_of(const json& messages) {
  json out = json::array();
  for (const json& message : messages) {
    out.push_back({{"role", message["role"]}, {"content", std::string("k1 the") + kEnd}});
  }
  return out;
}

Conversations conversations(const Tokenizer& tokenizer) {
  const bench::workload::AgentTrace trace = bench::testing::made_up_session();
  const auto turns = bench::workload::agent_turns(trace.root, trace.block_size);
  Conversations out;
  for (std::size_t k = 0; k < trace.root.requests.size(); ++k) {
    const auto prompt = bench::workload::agent_prompt(
        trace, 0, k, turns[k], bench::workload::AgentReplayText{13, 0, 0, {&tokenizer, 0}});
    const json messages = prompt.history.chat_messages();
    out.marked.push_back(marked_messages(messages));
    out.skeletons.push_back(skeleton_of(messages));
    out.lengths.push_back(bench::testing::piece_lengths(trace.root.requests[k], 64));
  }
  return out;
}

// `rendered` without its marks, and where each mark was.
std::string unmarked(const std::string& rendered, std::vector<std::size_t>& marks) {
  std::string text;
  for (const char c : rendered) {
    if (c == kEnd) {
      marks.push_back(text.size());
    } else {
      text += c;
    }
  }
  return text;
}

// The template's tokens before the end of each message's content, from a rendered skeleton.
std::vector<std::int64_t> template_tokens_before(const Tokenizer& tokenizer,
                                                 const std::string& rendered,
                                                 const json& skeleton) {
  std::vector<std::size_t> marks;
  const std::string text = unmarked(rendered, marks);
  std::vector<std::int64_t> before;
  std::int64_t contents = 0;
  for (std::size_t j = 0; j < marks.size(); ++j) {
    std::string content = skeleton[j]["content"].get<std::string>();
    content.pop_back();  // the mark
    contents += static_cast<std::int64_t>(tokenizer.count(content));
    before.push_back(static_cast<std::int64_t>(tokenizer.count(text.substr(0, marks[j]))) -
                     contents);
  }
  return before;
}

void expect_blocks_hold(const Tokenizer& tokenizer, const std::string& rendered, const json& marked,
                        const std::vector<std::int64_t>& template_before,
                        const std::vector<std::int64_t>& lengths) {
  std::vector<std::size_t> marks;
  const std::string text = unmarked(rendered, marks);
  ASSERT_EQ(marks.size(), lengths.size()) << "the template dropped or doubled a piece";
  const std::vector<TokenId> ids = tokenizer.encode(text);
  std::size_t piece = 0;
  std::int64_t contents = 0;
  for (std::size_t j = 0; j < marked.size(); ++j) {
    const std::string& content = marked[j]["content"].get_ref<const std::string&>();
    for (const char c : content) {
      if (c != kEnd) continue;
      contents += lengths[piece];
      const std::vector<TokenId> before = tokenizer.encode(text.substr(0, marks[piece]));
      EXPECT_TRUE(std::equal(before.begin(), before.end(), ids.begin()))
          << "message " << j << ", piece " << piece << ": a token spans its end";
      EXPECT_EQ(static_cast<std::int64_t>(before.size()), template_before[j] + contents)
          << "message " << j << ", piece " << piece;
      ++piece;
    }
  }
}

std::vector<std::string> render_with(const std::string& package, const json& conversations,
                                     const bench::testing::TempDir& dir) {
  std::ofstream(dir.file("conversations.json")) << conversations.dump();
  const auto run = bench::testing::run_process(
      BENCH_PYTHON3, {BENCH_CHAT_TEMPLATE_PY,
                      (bench::testing::npm_model_dir(package) / "tokenizer_config.json").string(),
                      dir.file("conversations.json"), dir.file("rendered.json")});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::ifstream in(dir.file("rendered.json"));
  return run.exit_code == 0 ? json::parse(in).get<std::vector<std::string>>()
                            : std::vector<std::string>();
}

// llama.cpp's LLM_CHAT_TEMPLATE_LLAMA_2 (src/llama-chat.cpp): "[INST] ", a system message's
// content and "\n", a user's and " [/INST]", a reply's and "</s>", "[INST] " again before the
// next user turn.
std::string llamacpp_llama2(const json& messages) {
  std::string out = "[INST] ";
  bool inside_turn = true;
  for (const json& message : messages) {
    const std::string& content = message["content"].get_ref<const std::string&>();
    if (!inside_turn) {
      inside_turn = true;
      out += "[INST] ";
    }
    if (message["role"] == "system") {
      out += content + "\n";
    } else if (message["role"] == "user") {
      out += content + " [/INST]";
    } else {
      out += content + "</s>";
      inside_turn = false;
    }
  }
  return out;
}

// The template's tokens in all: the prompt's less its messages' contents'.
std::int64_t template_tokens(const Tokenizer& tokenizer, const std::string& rendered,
                             std::int64_t contents) {
  std::vector<std::size_t> marks;
  return static_cast<std::int64_t>(tokenizer.count(unmarked(rendered, marks))) - contents;
}

void expect_every_request_holds(const std::string& name, const Tokenizer& tokenizer,
                                const Conversations& made, const std::vector<std::string>& rendered,
                                const std::vector<std::string>& skeletons) {
  ASSERT_EQ(rendered.size(), made.lengths.size());
  ASSERT_EQ(skeletons.size(), made.lengths.size());
  for (std::size_t k = 0; k < rendered.size(); ++k) {
    SCOPED_TRACE("request " + std::to_string(k));
    const auto before = template_tokens_before(tokenizer, skeletons[k], made.skeletons[k]);
    expect_blocks_hold(tokenizer, rendered[k], made.marked[k], before, made.lengths[k]);
    // What the template adds is the same whatever the content: the skeleton's share.
    std::int64_t contents = 0;
    for (const std::int64_t length : made.lengths[k]) contents += length;
    std::int64_t skeleton_contents = 0;
    for (const json& message : made.skeletons[k]) {
      const std::string& content = message["content"].get_ref<const std::string&>();
      skeleton_contents += static_cast<std::int64_t>(tokenizer.count(content.substr(0, 6)));
    }
    const std::int64_t added = template_tokens(tokenizer, rendered[k], contents);
    EXPECT_EQ(added, template_tokens(tokenizer, skeletons[k], skeleton_contents));
    std::cout << "[ template ] " << name << ": request " << k << ", " << made.marked[k].size()
              << " messages: " << added << " tokens of template\n";
  }
}

class AgentTemplate : public ::testing::TestWithParam<std::string> {};

TEST_P(AgentTemplate, BlocksHoldThroughTheModelsOwnChatTemplate) {
  if (!bench::testing::have_npm_tokenizers()) {
    GTEST_SKIP() << "SKIPPED: no tokenizer.json files: run scripts/setup --test (npm data)";
  }
  const bench::testing::TempDir dir;
  const auto probe = bench::testing::run_process(BENCH_PYTHON3, {"-c", "import jinja2"});
  if (probe.exit_code != 0) {
    GTEST_SKIP() << "SKIPPED: no python3 with jinja2 to render the templates: run scripts/setup "
                    "--test (python3-jinja2)";
  }
  const Tokenizer& tokenizer = bench::testing::npm_tokenizer(GetParam());
  const Conversations made = conversations(tokenizer);
  expect_every_request_holds(GetParam(), tokenizer, made, render_with(GetParam(), made.marked, dir),
                             render_with(GetParam(), made.skeletons, dir));
}

INSTANTIATE_TEST_SUITE_P(RealTemplates, AgentTemplate,
                         ::testing::Values("llama3", "qwen3", "deepseek_v3", "gemma3"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           return param_info.param;
                         });

TEST(AgentTemplateLlamaCpp, TheFramingIsWhatLlamaCppsApplyTemplateAnswered) {
  std::ifstream capture(bench::testing::kServerApiDir + "llamacpp-apply-template.response.json");
  const json answer = json::parse(capture);
  EXPECT_EQ(llamacpp_llama2(json::array({{{"role", "user"}, {"content", "Hello world"}}})),
            answer["prompt"].get<std::string>());
}

TEST(AgentTemplateLlamaCpp, BlocksHoldThroughLlamaCppsLlama2FramingWithLlama2sTokenizer) {
  if (!bench::testing::have_npm_tokenizers()) {
    GTEST_SKIP() << "SKIPPED: no tokenizer.json files: run scripts/setup --test (npm data)";
  }
  const Tokenizer& tokenizer = bench::testing::npm_tokenizer("llama2");
  const Conversations made = conversations(tokenizer);
  std::vector<std::string> rendered;
  std::vector<std::string> skeletons;
  for (std::size_t k = 0; k < made.lengths.size(); ++k) {
    rendered.push_back(llamacpp_llama2(made.marked[k]));
    skeletons.push_back(llamacpp_llama2(made.skeletons[k]));
  }
  expect_every_request_holds("llama2 (llama.cpp's framing)", tokenizer, made, rendered, skeletons);
}

}  // namespace agent_template_test
