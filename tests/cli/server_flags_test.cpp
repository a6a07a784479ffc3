// --base-url repeated and --server-weights: each URL trimmed and kept in order,
// weights one per server, and one clear weights_refusal for each mistake.
#include "bench/cli/server_flags.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/cli/options.hpp"
#include "bench/cli/values.hpp"
#include "parse_run_options.hpp"

namespace {

using bench::cli::parse_server_weights;
using bench::cli::UsageError;
using bench::testing::parse_args;

std::string weights_refusal(const std::string& text, std::size_t servers) {
  try {
    parse_server_weights(text, servers);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(ServerFlags, BaseUrlRepeatsInTheOrderGiven) {
  const auto result = parse_args({"--base-url", "http://127.0.0.1:8001/v1/", "--base-url",
                                  "http://127.0.0.1:8002", "--server-weights", "3,1"});
  ASSERT_FALSE(result.exit_code) << result.message;
  EXPECT_EQ(result.run.base_urls,
            (std::vector<std::string>{"http://127.0.0.1:8001", "http://127.0.0.1:8002"}));
  EXPECT_EQ(result.run.server_weights, (std::vector<std::int64_t>{3, 1}));
}

TEST(ServerFlags, ABaseUrlsQueryStaysWhileItsPathIsTrimmed) {
  // The query follows every route bench adds (util::url_join): "/v1" and "/" come off the path.
  const auto result =
      parse_args({"--base-url", "http://h:8000/v1/?api-version=2024-06&api_key=k#top"});
  ASSERT_FALSE(result.exit_code) << result.message;
  EXPECT_EQ(result.run.base_urls.front(), "http://h:8000?api-version=2024-06&api_key=k#top");
}

TEST(ServerFlags, WithoutWeightsTheSpreadIsRoundRobin) {
  const auto result = parse_args({"--base-url", "http://a:1", "--base-url", "http://b:1"});
  ASSERT_FALSE(result.exit_code) << result.message;
  EXPECT_TRUE(result.run.server_weights.empty());
}

TEST(ServerFlags, RefusesWeightsThatAreNotOneWholeNumberPerServer) {
  EXPECT_EQ(parse_server_weights("3,1", 2), (std::vector<std::int64_t>{3, 1}));
  EXPECT_EQ(weights_refusal("3", 2),
            "--server-weights 3: 1 weights for 2 --base-url servers (one each, in their order)");
  EXPECT_EQ(weights_refusal("3,0", 2), "--server-weights 3,0: '0' is not a whole number 1..1000");
  EXPECT_NE(weights_refusal("3,,1", 3).find("'' is not a whole number"), std::string::npos);
  EXPECT_NE(weights_refusal("1.5,1", 2).find("'1.5'"), std::string::npos);
  EXPECT_NE(weights_refusal("-1,1", 2), "");
  EXPECT_NE(weights_refusal("1001,1", 2), "");
  EXPECT_NE(weights_refusal("3,1,", 2), "");
}

TEST(ServerFlags, RefusesBadCombinationsBeforeAnythingIsSent) {
  const auto weights_alone = parse_args({"--base-url", "http://a:1", "--server-weights", "2"});
  ASSERT_TRUE(weights_alone.exit_code);
  EXPECT_EQ(*weights_alone.exit_code, 2);
  EXPECT_NE(weights_alone.message.find("applies to several --base-url"), std::string::npos);

  const auto twice = parse_args({"--base-url", "http://a:1/", "--base-url", "http://a:1"});
  ASSERT_TRUE(twice.exit_code);
  EXPECT_NE(twice.message.find("'http://a:1' is given twice"), std::string::npos);

  const auto bad_url = parse_args({"--base-url", "http://a:1", "--base-url", "a:2"});
  ASSERT_TRUE(bad_url.exit_code);
  EXPECT_NE(bad_url.message.find("'a:2' is not an http:// or https:// URL"), std::string::npos);

  const auto flush =
      parse_args({"--base-url", "http://a:1", "--base-url", "http://b:1", "--flush-cache"});
  ASSERT_TRUE(flush.exit_code);
  EXPECT_NE(flush.message.find("--flush-cache"), std::string::npos);
}

}  // namespace
