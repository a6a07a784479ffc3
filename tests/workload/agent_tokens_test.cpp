// Recorded agent requests in a real tokenizer's tokens (--trace-format weka --tokenizer FILE): on
// the five tokenizer.json files of tests/tokenizer/npm, every block is exactly block_size tokens
// where it stands, the tokenizer counting the whole message (BPE merges inside a pre-token, and
// a piece starting a message has no space before it), at every block boundary of every message;
// every request is exactly its recorded "in"; and a block whose text began with its key's
// digits would not be (why the text begins with "k": agent_block_text.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "agent_pieces.hpp"
#include "bench/workload/agent_block_text.hpp"
#include "bench/workload/agent_history.hpp"
#include "bench/workload/agent_trace.hpp"
#include "data_dirs.hpp"
#include "real_tokenizers.hpp"

namespace agent_tokens_test {

using bench::tokenizer::TokenId;
using bench::tokenizer::Tokenizer;
using bench::workload::AgentPrompt;
using bench::workload::AgentReplayText;
using bench::workload::AgentTrace;
using bench::workload::ResentText;

std::vector<AgentPrompt> every_request(const AgentTrace& trace, const Tokenizer& tokenizer,
                                       ResentText* kept, std::uint64_t replay = 0) {
  std::vector<AgentPrompt> prompts;
  const auto turns = bench::workload::agent_turns(trace.root, trace.block_size);
  for (std::size_t k = 0; k < trace.root.requests.size(); ++k) {
    prompts.push_back(bench::workload::agent_prompt(
        trace, 0, k, turns[k], AgentReplayText{11, 0, replay, {&tokenizer, 0}, kept}));
  }
  return prompts;
}

std::vector<std::string> contents(const AgentPrompt& prompt) {
  std::vector<std::string> out;
  for (const auto& message : prompt.history.chat_messages()) {
    out.push_back(message["content"].get<std::string>());
  }
  return out;
}

bool starts_with(const std::vector<TokenId>& ids, const std::vector<TokenId>& prefix) {
  return prefix.size() <= ids.size() && std::equal(prefix.begin(), prefix.end(), ids.begin());
}

// Every piece of every message of `prompt` ends exactly where its tokens say: the encoding of
// the message up to a piece's end is a prefix of the whole message's encoding, and as long as
// the pieces so far.
void expect_exact_at_every_boundary(const Tokenizer& tokenizer, const AgentPrompt& prompt,
                                    const std::vector<std::int64_t>& lengths) {
  std::size_t piece = 0;
  std::int64_t total = 0;
  for (const std::string& message : contents(prompt)) {
    const std::vector<TokenId> ids = tokenizer.encode(message);
    std::int64_t tokens = 0;
    for (const std::size_t end : bench::testing::piece_ends(message)) {
      ASSERT_LT(piece, lengths.size());
      tokens += lengths[piece++];
      const std::vector<TokenId> before = tokenizer.encode(message.substr(0, end));
      EXPECT_TRUE(starts_with(ids, before)) << "piece " << piece << " ends inside a token";
      EXPECT_EQ(static_cast<std::int64_t>(before.size()), tokens) << "piece " << piece;
    }
    EXPECT_EQ(static_cast<std::int64_t>(ids.size()), tokens);
    total += tokens;
  }
  EXPECT_EQ(piece, lengths.size());
  EXPECT_EQ(total, prompt.input_len);
  EXPECT_EQ(prompt.client_tokens, prompt.input_len);
}

class AgentTokens : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!bench::testing::have_npm_tokenizers()) {
      GTEST_SKIP() << "SKIPPED: no tokenizer.json files: run scripts/setup --test (npm data)";
    }
  }
};

TEST_P(AgentTokens, EveryBlockIsExactlyItsTokensWhereItStandsInItsMessage) {
  const Tokenizer& tokenizer = bench::testing::npm_tokenizer(GetParam());
  const AgentTrace trace = bench::testing::made_up_session();
  ResentText kept;
  const std::vector<AgentPrompt> prompts = every_request(trace, tokenizer, &kept);
  for (std::size_t k = 0; k < prompts.size(); ++k) {
    SCOPED_TRACE("request " + std::to_string(k));
    expect_exact_at_every_boundary(tokenizer, prompts[k],
                                   bench::testing::piece_lengths(trace.root.requests[k], 64));
  }
  // Each request after the first resent the blocks and messages before it: made and counted
  // once, then kept.
  EXPECT_GT(kept.blocks.hits(), kept.blocks.misses());
  EXPECT_GT(kept.counts.hits(), 0u);
}

TEST_P(AgentTokens, ABlockIsTheSameTextKeptOrMadeAgainAndWhereverItStands) {
  const Tokenizer& tokenizer = bench::testing::npm_tokenizer(GetParam());
  const AgentTrace trace = bench::testing::made_up_session();
  ResentText resent;
  const std::vector<AgentPrompt> kept = every_request(trace, tokenizer, &resent);
  const std::vector<AgentPrompt> made = every_request(trace, tokenizer, nullptr);
  for (std::size_t k = 0; k < kept.size(); ++k) {
    EXPECT_EQ(contents(kept[k]), contents(made[k]));
    EXPECT_EQ(kept[k].client_tokens, made[k].client_tokens);
  }
  // Every block, alone, from a start of message and after a space: block_size tokens each way.
  for (const std::uint64_t key : {1ULL, 42ULL, 9'223'372'036'854'775'807ULL}) {
    const std::string text = bench::workload::agent_piece_text(5, key, 64, &tokenizer);
    EXPECT_EQ(tokenizer.count(text), 64u) << text;
    EXPECT_EQ(tokenizer.count("the " + text) - tokenizer.count("the"), 64u) << text;
  }
}

TEST_P(AgentTokens, AShortTailCutsItsKeysDigitsAndStaysExact) {
  const Tokenizer& tokenizer = bench::testing::npm_tokenizer(GetParam());
  for (const std::int64_t length : {1, 2, 3, 5, 8, 13, 21}) {
    const std::string text =
        bench::workload::agent_piece_text(5, 9'223'372'036'854'775'807ULL, length, &tokenizer);
    EXPECT_EQ(static_cast<std::int64_t>(tokenizer.count(text)), length) << text;
    EXPECT_EQ(text.front(), 'k');
  }
}

// The seam this design avoids: a block that began with its key's digits would cost one token
// more inside a message (after a space) than where it starts one, on every one of these
// tokenizers but Llama-2's (whose normalizer prepends "▁" to a message: the same "▁" either way).
TEST_P(AgentTokens, ABlockBeginningWithDigitsWouldCostOneTokenMoreInsideAMessage) {
  const Tokenizer& tokenizer = bench::testing::npm_tokenizer(GetParam());
  const auto inside = [&](const std::string& text) {
    return tokenizer.count("the " + text) - tokenizer.count("the");
  };
  const std::string digits = "9223372036854775807 the of and";
  EXPECT_EQ(inside(digits), tokenizer.count(digits) + (GetParam() == "llama2" ? 0 : 1));
  EXPECT_EQ(inside("k" + digits), tokenizer.count("k" + digits));
}

INSTANTIATE_TEST_SUITE_P(RealTokenizers, AgentTokens,
                         ::testing::Values("llama3", "qwen3", "deepseek_v3", "llama2", "gemma3"),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           return param_info.param;
                         });

// The real traces: every request of every agent is exactly its recorded "in" as the tokenizer
// counts what is sent, message by message.
TEST(AgentTokensRealTraces, EveryRequestIsItsRecordedInOnLlama3AndQwen3) {
  if (!bench::testing::have_npm_tokenizers()) GTEST_SKIP() << "SKIPPED: run scripts/setup --test";
  for (const std::string package : {"llama3", "qwen3"}) {
    const Tokenizer& tokenizer = bench::testing::npm_tokenizer(package);
    ResentText kept;
    for (const AgentTrace& trace :
         bench::workload::read_agent_traces(bench::testing::kTracesDir + "weka")) {
      for (std::size_t agent = 0; agent <= trace.children.size(); ++agent) {
        const auto& script = agent == 0 ? trace.root : trace.children[agent - 1].script;
        const auto turns = bench::workload::agent_turns(script, trace.block_size);
        for (std::size_t k = 0; k < script.requests.size(); ++k) {
          const AgentPrompt prompt = bench::workload::agent_prompt(
              trace, agent, k, turns[k], AgentReplayText{3, 0, 0, {&tokenizer, 0}, &kept});
          EXPECT_EQ(prompt.client_tokens, script.requests[k].input_len)
              << package << " " << trace.id << " agent " << agent << " request " << k;
        }
      }
    }
  }
}

}  // namespace agent_tokens_test
