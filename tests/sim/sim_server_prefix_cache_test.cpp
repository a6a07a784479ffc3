// The embedded server's prefix cache over real loopback sockets: a prompt sent again is served
// from whole cached blocks and says so in usage.prompt_tokens_details.cached_tokens (vLLM's
// shape), POST /flush_cache (SGLang) and /reset_prefix_cache (vLLM) empty it, the truth log
// records the cached tokens, a chat image's tokens are cached only for the same image, and a
// server without the cache does not claim any.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/images/random_image.hpp"
#include "bench/sim/sim_server.hpp"
#include "raw_http.hpp"

namespace {

using bench::sim::SimOptions;
using bench::sim::SimServer;
using bench::testing::post;
using bench::testing::RawConnection;
using bench::testing::RawResponse;
using nlohmann::json;

SimOptions tiny_with_cache(bool on) {
  SimOptions options;
  options.profile = "tiny";
  options.prefix_cache = on;
  return options;
}

// A completion of a 64-word prompt: four 16-token blocks.
std::string completion_body() {
  std::string prompt;
  for (int i = 0; i < 64; ++i) prompt += (i == 0 ? "w" : " w") + std::to_string(i);
  return R"({"prompt":")" + prompt +
         R"(","max_tokens":2,"stream":true,"stream_options":{"include_usage":true}})";
}

// The usage object of a streamed response (its last usage-carrying chunk).
json usage_of(const RawResponse& response) {
  json usage;
  std::istringstream in(response.body);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("data: {", 0) != 0) continue;
    const json chunk = json::parse(line.substr(6));
    if (chunk.contains("usage") && chunk["usage"].is_object()) usage = chunk["usage"];
  }
  return usage;
}

json send_completion(RawConnection& connection) {
  connection.send(post("/v1/completions", completion_body()));
  const RawResponse response = connection.read_response();
  EXPECT_EQ(response.status, 200);
  return usage_of(response);
}

int send_post(RawConnection& connection, const std::string& path) {
  connection.send(post(path, "{}"));
  return connection.read_response().status;
}

TEST(SimServerPrefixCache, ServesARepeatedPromptFromItsCacheUntilFlushed) {
  SimServer server(tiny_with_cache(true));
  RawConnection connection(server.port());
  const json first = send_completion(connection);
  EXPECT_EQ(first["prompt_tokens"], 64);
  EXPECT_EQ(first["prompt_tokens_details"]["cached_tokens"], 0);
  // Three whole blocks; the fourth holds the last prompt token, which is always computed.
  EXPECT_EQ(send_completion(connection)["prompt_tokens_details"]["cached_tokens"], 48);

  EXPECT_EQ(send_post(connection, "/flush_cache"), 200);
  EXPECT_EQ(send_completion(connection)["prompt_tokens_details"]["cached_tokens"], 0);
  EXPECT_EQ(send_post(connection, "/reset_prefix_cache"), 200);
  EXPECT_EQ(send_completion(connection)["prompt_tokens_details"]["cached_tokens"], 0);
  EXPECT_EQ(send_completion(connection)["prompt_tokens_details"]["cached_tokens"], 48);
}

// A streamed chat request whose one user message holds a 140 x 140 PNG of `seed` (100 tokens at
// 14-pixel patches) and then 32 words.
json send_chat_with_image(RawConnection& connection, std::uint64_t seed) {
  std::string text;
  for (int i = 0; i < 32; ++i) text += (i == 0 ? "w" : " w") + std::to_string(i);
  const std::string url =
      bench::images::random_image_data_url({140, 140}, bench::images::ImageFormat::png, seed);
  const json content = json::array(
      {{{"type", "image_url"}, {"image_url", {{"url", url}}}}, {{"type", "text"}, {"text", text}}});
  const json body = {{"messages", json::array({{{"role", "user"}, {"content", content}}})},
                     {"max_tokens", 2},
                     {"stream", true},
                     {"stream_options", {{"include_usage", true}}}};
  connection.send(post("/v1/chat/completions", body.dump()));
  const RawResponse response = connection.read_response();
  EXPECT_EQ(response.status, 200) << response.body;
  return usage_of(response);
}

TEST(SimServerPrefixCache, TheSameTextAfterAnotherImageIsNotServedFromTheCache) {
  SimServer server(tiny_with_cache(true));
  RawConnection connection(server.port());
  const json first = send_chat_with_image(connection, 1);
  EXPECT_EQ(first["prompt_tokens"], 132);
  EXPECT_EQ(first["prompt_tokens_details"]["cached_tokens"], 0);
  EXPECT_EQ(send_chat_with_image(connection, 2)["prompt_tokens_details"]["cached_tokens"], 0);
  // The first image again: its 100 tokens and the text's whole blocks, all but the last token's.
  EXPECT_EQ(send_chat_with_image(connection, 1)["prompt_tokens_details"]["cached_tokens"], 128);
}

TEST(SimServerPrefixCache, FlushWantsPost) {
  SimServer server(tiny_with_cache(true));
  RawConnection connection(server.port());
  connection.send("GET /flush_cache HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(connection.read_response().status, 405);
}

TEST(SimServerPrefixCache, WithoutTheCacheClaimsNoCachedTokensAndStillAnswersAFlush) {
  SimServer server(tiny_with_cache(false));
  RawConnection connection(server.port());
  send_completion(connection);
  const json usage = send_completion(connection);
  EXPECT_EQ(usage["prompt_tokens"], 64);
  EXPECT_FALSE(usage.contains("prompt_tokens_details"));
  EXPECT_EQ(send_post(connection, "/flush_cache"), 200);
}

TEST(SimServerPrefixCache, TheTruthLogRecordsTheCachedTokensOfEachRequest) {
  const std::string path = testing::TempDir() + "prefix_cache_trace.jsonl";
  {
    SimOptions options = tiny_with_cache(true);
    options.trace_path = path;
    SimServer server(options);
    RawConnection connection(server.port());
    send_completion(connection);
    send_completion(connection);
    connection.close();
  }
  std::ifstream in(path);
  std::vector<std::int64_t> cached;
  std::string line;
  while (std::getline(in, line)) cached.push_back(json::parse(line)["cached_prompt_tokens"]);
  std::remove(path.c_str());
  EXPECT_EQ(cached, (std::vector<std::int64_t>{0, 48}));
}

}  // namespace
