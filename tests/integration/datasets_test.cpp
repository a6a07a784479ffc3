// Each dataset through the real binary, checked on the server's side (the simulator's truth log
// says what it was sent): the right number of requests, with the right prompt lengths and
// max_tokens; and a malformed file stops the run, naming file and line, before anything is sent.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"

namespace {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;

const std::string kDatasets = std::string(BENCH_TEST_DATA_DIR) + "/datasets/";

// What the server was sent, one entry per completion request, in arrival order.
struct Served {
  std::int64_t prompt_tokens;
  std::int64_t completion_tokens;
};

// Runs bench (one request at a time, so arrival order is sending order) against a simulator
// that keeps a truth log, and returns what the log says it served.
std::vector<Served> serve(std::vector<std::string> args, ProcessResult* result = nullptr) {
  TempDir dir;
  std::vector<Served> served;
  {
    bench::sim::SimOptions options;
    options.ttft_ms = 1;
    options.tpot_ms = 0;
    options.trace_path = dir.file("trace.jsonl");
    bench::sim::SimServer server(options);
    std::vector<std::string> full = {"--base-url", server.base_url(),   "--quiet", "--concurrency",
                                     "1",          "--per-chunk-usage", "off",     "--ignore-eos"};
    full.insert(full.end(), args.begin(), args.end());
    ProcessResult run = run_process(BENCH_BINARY, bench::testing::without_answer_check(full));
    EXPECT_FALSE(run.timed_out);
    if (result != nullptr) *result = std::move(run);
  }
  for (const json& record : bench::testing::read_jsonl(dir.file("trace.jsonl"))) {
    served.push_back({record["prompt_tokens"], record["completion_tokens"]});
  }
  return served;
}

std::int64_t words(const std::string& text) {
  std::istringstream in(text);
  std::string word;
  std::int64_t count = 0;
  while (in >> word) ++count;
  return count;
}

// A message's words by the simulator's documented rule: a string, or the "text" of each part.
std::int64_t content_words(const json& content) {
  if (content.is_string()) return words(content.get<std::string>());
  std::int64_t count = 0;
  if (content.is_array()) {
    for (const json& part : content) {
      if (part.contains("text")) count += words(part["text"].get<std::string>());
    }
  }
  return count;
}

TEST(Datasets, JsonlSendsEachLinesPromptOrMessagesWithItsMaxTokens) {
  // What the file holds, read here independently of bench's loader.
  std::vector<Served> expected;
  std::ifstream file(kDatasets + "requests.jsonl");
  std::string line;
  while (std::getline(file, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const json request = json::parse(line);
    std::int64_t prompt = 0;
    if (request.contains("messages")) {
      for (const json& message : request["messages"]) prompt += content_words(message["content"]);
    } else {
      prompt = words(request["prompt"].get<std::string>());
    }
    const bool has_max = request.contains("max_tokens") && !request["max_tokens"].is_null();
    expected.push_back({prompt, has_max ? request["max_tokens"].get<std::int64_t>() : 9});
  }
  ASSERT_EQ(expected.size(), 7u);

  ProcessResult run;
  const std::vector<Served> served =
      serve({"--dataset", "jsonl", "--dataset-path", kDatasets + "requests.jsonl", "--no-shuffle",
             "--num-prompts", "7", "--output-len", "9"},
            &run);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(served.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(served[i].prompt_tokens, expected[i].prompt_tokens) << "line " << i;
    EXPECT_EQ(served[i].completion_tokens, expected[i].completion_tokens) << "line " << i;
  }
}

TEST(Datasets, ShareGptSendsTheUsableConversationsFirstHumanTurns) {
  ProcessResult run;
  const std::vector<Served> served =
      serve({"--dataset", "sharegpt", "--dataset-path", kDatasets + "sharegpt_sample.json",
             "--num-prompts", "20", "--output-format", "json"},
            &run);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(served.size(), 20u);  // the sample's 20 usable conversations, each once
  bool saw_longest = false;
  for (const Served& s : served) {
    // vLLM's filter, in words: prompt >= 4 and <= 1024, reply >= 4, prompt + reply <= 2048.
    EXPECT_GE(s.prompt_tokens, 4);
    EXPECT_LE(s.prompt_tokens, 1024);
    EXPECT_GE(s.completion_tokens, 4);
    EXPECT_LE(s.prompt_tokens + s.completion_tokens, 2048);
    saw_longest = saw_longest || s.prompt_tokens == 296;  // the sample's longest usable prompt
  }
  EXPECT_TRUE(saw_longest);
  // The server's counts and bench's agree: the request asked for what the server generated.
  const json results = json::parse(run.out);
  std::int64_t generated = 0;
  for (const Served& s : served) generated += s.completion_tokens;
  EXPECT_EQ(results["total_output_tokens"], generated);
}

TEST(Datasets, SharedPrefixSendsEveryGroupsQuestionsWithTheSystemPrompt) {
  ProcessResult run;
  const std::vector<Served> served =
      serve({"--dataset", "shared-prefix", "--prefix-groups", "3", "--questions-per-group", "2",
             "--prefix-len", "50", "--input-len", "7", "--output-len", "3"},
            &run);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(served.size(), 6u);  // groups x questions, as SGLang's generated-shared-prefix
  for (const Served& s : served) {
    EXPECT_EQ(s.prompt_tokens, 57);  // a 50-word system prompt and a 7-word question
    EXPECT_EQ(s.completion_tokens, 3);
  }
}

TEST(Datasets, RandomSendsPromptsOfTheLengthAskedFor) {
  ProcessResult run;
  const std::vector<Served> served =
      serve({"--num-prompts", "5", "--input-len", "33", "--output-len", "4"}, &run);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_EQ(served.size(), 5u);
  for (const Served& s : served) {
    EXPECT_EQ(s.prompt_tokens, 33);
    EXPECT_EQ(s.completion_tokens, 4);
  }
}

struct BadFile {
  std::string dataset;
  std::string file;
  std::string must_say;  // FILE:LINE, or what is wrong
};

class MalformedDataset : public ::testing::TestWithParam<BadFile> {};

TEST_P(MalformedDataset, StopsTheRunNamingFileAndLineBeforeAnythingIsSent) {
  const BadFile& bad = GetParam();
  ProcessResult run;
  const std::vector<Served> served =
      serve({"--dataset", bad.dataset, "--dataset-path", kDatasets + bad.file}, &run);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find(bad.must_say), std::string::npos) << run.err;
  EXPECT_TRUE(served.empty());
  EXPECT_TRUE(run.out.empty()) << run.out;
}

INSTANTIATE_TEST_SUITE_P(
    Files, MalformedDataset,
    ::testing::Values(BadFile{"jsonl", "bad_json.jsonl", "bad_json.jsonl:3"},
                      BadFile{"jsonl", "missing_prompt.jsonl", "missing_prompt.jsonl:2"},
                      BadFile{"jsonl", "bad_max_tokens.jsonl", "bad_max_tokens.jsonl:4"},
                      BadFile{"jsonl", "bad_message.jsonl", "bad_message.jsonl:1"},
                      BadFile{"jsonl", "blank.jsonl", "blank.jsonl"},
                      BadFile{"sharegpt", "sharegpt_truncated.json", "sharegpt_truncated.json"},
                      BadFile{"sharegpt", "sharegpt_not_a_list.json", "list of conversations"}));

}  // namespace
