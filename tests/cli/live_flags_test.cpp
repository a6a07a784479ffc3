// --metrics-listen's [HOST:]PORT (loopback unless a host is given, IPv6 in brackets) and the
// one-line refusals of what is no address, and the live flags' checks after parsing.
#include "bench/cli/live_flags.hpp"

#include <string>

#include <gtest/gtest.h>

#include "bench/cli/exit_codes.hpp"
#include "bench/cli/values.hpp"
#include "parse_run_options.hpp"

namespace {

using bench::cli::ListenAddress;
using bench::cli::parse_listen_address;
using bench::cli::UsageError;

std::string listen_refusal(const std::string& text) {
  try {
    parse_listen_address(text);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(LiveFlags, APortAloneListensOnLoopback) {
  const ListenAddress address = parse_listen_address("9464");
  EXPECT_EQ(address.host, "127.0.0.1");
  EXPECT_EQ(address.port, 9464);
}

TEST(LiveFlags, HostAndPortAndBracketedIpv6) {
  EXPECT_EQ(parse_listen_address("0.0.0.0:9464").host, "0.0.0.0");
  EXPECT_EQ(parse_listen_address("localhost:0").port, 0);
  const ListenAddress v6 = parse_listen_address("[::1]:9000");
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.port, 9000);
}

TEST(LiveFlags, RefusesWhatIsNoAddress) {
  for (const std::string text :
       {"", "http", "70000", ":9464", "::1:9464", "[::1]", "host:-1", "host:9464x"}) {
    EXPECT_NE(listen_refusal(text).find("--metrics-listen"), std::string::npos) << text;
  }
}

TEST(LiveFlags, ParsedIntoTheRunsOptions) {
  const bench::cli::RunOptions run = bench::testing::parse_run_options(
      {"--metrics-listen", "9100", "--metrics-window", "60", "--metrics-linger", "5"});
  ASSERT_TRUE(run.metrics_listen);
  EXPECT_EQ(run.metrics_listen->port, 9100);
  EXPECT_EQ(run.metrics_window_s, 60);
  EXPECT_EQ(run.metrics_linger_s, 5);
}

TEST(LiveFlags, LingerNeedsAListener) {
  const bench::cli::ParseResult parsed = bench::testing::parse_args({"--metrics-linger", "5"});
  ASSERT_TRUE(parsed.exit_code.has_value());
  EXPECT_EQ(*parsed.exit_code, bench::cli::kExitUsage);
  EXPECT_NE(parsed.message.find("--metrics-listen"), std::string::npos) << parsed.message;
}

}  // namespace
