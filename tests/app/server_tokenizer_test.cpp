// The server's tokenizer reads the shapes real servers answer: llama.cpp's captured bodies
// (tests/data/server-api/README.md) and vLLM's and TGI's documented ones.
#include "bench/app/server/server_tokenizer.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace {

using bench::app::token_ids_of;
using nlohmann::json;

json captured(const std::string& name) {
  std::ifstream in(std::string(BENCH_TEST_DATA_DIR) + "/server-api/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

TEST(ServerTokenizer, reads_llamacpp_token_ids_as_captured) {
  const auto ids = token_ids_of(captured("llamacpp-tokenize.response.json"));
  ASSERT_TRUE(ids);
  EXPECT_EQ(ids->size(), 12u);
  EXPECT_EQ(ids->front(), 15043);
}

TEST(ServerTokenizer, reads_llamacpp_pieces_as_captured) {
  const auto ids = token_ids_of(captured("llamacpp-tokenize-pieces.response.json"));
  ASSERT_TRUE(ids);
  EXPECT_EQ(*ids, (std::vector<bench::tokenizer::TokenId>{15043, 3186}));
}

TEST(ServerTokenizer, reads_vllm_and_tgi_shapes) {
  EXPECT_EQ(token_ids_of(json::parse(R"({"count":2,"max_model_len":8,"tokens":[5,6]})"))->size(),
            2u);
  EXPECT_EQ(token_ids_of(json::parse(R"([{"id":9,"text":"a","start":0,"stop":1}])"))->front(), 9);
}

// TGI encodes with a llama model's BOS (router/src/validation.rs): the special token has the
// empty span (0, 0), the content tokens span their text. An older TGI adds it even when asked
// "add_special_tokens": false, so bench finds it by its span.
TEST(ServerTokenizer, finds_the_special_tokens_tgi_added_by_their_empty_span) {
  const json with_bos = json::parse(
      R"([{"id":1,"text":"","start":0,"stop":0},{"id":15043,"text":"Hello","start":0,"stop":5},)"
      R"({"id":3186,"text":" world","start":5,"stop":11}])");
  EXPECT_EQ(bench::app::tgi_added_positions(with_bos), (std::vector<std::size_t>{0}));
  const json bos_and_eos = json::parse(
      R"([{"id":1,"start":0,"stop":0},{"id":7,"start":0,"stop":1},{"id":2,"start":0,"stop":0}])");
  EXPECT_EQ(bench::app::tgi_added_positions(bos_and_eos), (std::vector<std::size_t>{0, 2}));
  const json content = json::parse(R"([{"id":15043,"text":"Hello","start":0,"stop":5}])");
  EXPECT_EQ(bench::app::tgi_added_positions(content), std::vector<std::size_t>{});
  // Every span empty: nothing tells specials from content.
  EXPECT_FALSE(bench::app::tgi_added_positions(json::parse(R"([{"id":1,"start":0,"stop":0}])")));
  EXPECT_FALSE(bench::app::tgi_added_positions(json::parse(R"({"tokens":[1]})")));
}

TEST(ServerTokenizer, refuses_other_shapes) {
  EXPECT_FALSE(token_ids_of(captured("llamacpp-apply-template.response.json")));
  EXPECT_FALSE(token_ids_of(json::parse(R"({"tokens":["a"]})")));
  EXPECT_FALSE(token_ids_of(json::parse(R"({"tokens":[{"piece":"a"}]})")));
}

}  // namespace
