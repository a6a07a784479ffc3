// The listener over loopback: it serves the board's latest snapshot at /metrics and /api/live,
// and a port another listener holds is refused with a message naming it, not shared.
#include "bench/live/listener.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <variant>

#include "bench/engine/fetch.hpp"

namespace bench::live {
namespace {

std::unique_ptr<Listener> open_or_fail(const std::string& host, int port,
                                       const SnapshotBoard& board) {
  auto opened = Listener::open(host, port, board);
  if (auto* error = std::get_if<std::string>(&opened)) {
    ADD_FAILURE() << *error;
    return nullptr;
  }
  return std::move(std::get<std::unique_ptr<Listener>>(opened));
}

TEST(LiveListener, ServesTheLatestSnapshot) {
  SnapshotBoard board;
  const auto listener = open_or_fail("127.0.0.1", 0, board);
  ASSERT_NE(listener, nullptr);
  EXPECT_GT(listener->port(), 0);
  const engine::EngineOptions options;
  EXPECT_EQ(engine::fetch(listener->base_url() + "/metrics", {}, "", options).http_status, 503);
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->in_flight = 7;
  board.publish(snapshot);
  const engine::FetchResult metrics =
      engine::fetch(listener->base_url() + "/metrics", {}, "", options);
  EXPECT_EQ(metrics.http_status, 200);
  EXPECT_NE(metrics.content_type.find("version=0.0.4"), std::string::npos);
  EXPECT_NE(metrics.body.find("bench_requests_in_flight 7\n"), std::string::npos) << metrics.body;
  const engine::FetchResult live =
      engine::fetch(listener->base_url() + "/api/live", {}, "", options);
  EXPECT_EQ(live.http_status, 200);
  EXPECT_EQ(nlohmann::json::parse(live.body)["in_flight"], 7);
}

TEST(LiveListener, RefusesAPortInUse) {
  SnapshotBoard board;
  const auto first = open_or_fail("127.0.0.1", 0, board);
  ASSERT_NE(first, nullptr);
  auto second = Listener::open("127.0.0.1", first->port(), board);
  ASSERT_TRUE(std::holds_alternative<std::string>(second));
  EXPECT_NE(std::get<std::string>(second).find(std::to_string(first->port())), std::string::npos);
}

}  // namespace
}  // namespace bench::live
