// A request written into a kept-alive connection that the server closes without reading it is
// sent once more on a new connection: not failed, counted as a retry. Against a server that
// closes only some of its connections, reuse goes on (the watch needs several closes in a row).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "bench/engine/engine.hpp"
#include "burst_source.hpp"
#include "hostile_server.hpp"

namespace {

using bench::engine::Engine;
using bench::engine::EngineOptions;
using bench::metrics::ErrorClass;
using bench::testing::Exchange;
using bench::testing::HostileServer;
using bench_test::BurstSource;

constexpr std::string_view kShortAnswer =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";

TEST(EngineClosedConnections, ARequestTheServerClosedItsConnectionUnderIsSentAgainNotFailed) {
  // Each connection answers two requests, then stops reading and closes 50 ms later: the
  // client's third request on it is written into a connection that is about to go.
  HostileServer server([](Exchange& exchange) {
    if (!exchange.send(kShortAnswer)) return;
    if (exchange.receive().empty()) return;
    if (!exchange.send(kShortAnswer)) return;
    exchange.pause(std::chrono::milliseconds(50));
    exchange.reset();  // with the third request unread, the close is an RST
  });
  EngineOptions options;
  options.concurrency = 1;
  Engine engine(options);
  BurstSource source(server.base_url() + "/v1/completions", 60);
  const bench::engine::EngineStats stats = engine.run(source);
  EXPECT_EQ(stats.finished, 60);
  for (const auto& handler : source.handlers) EXPECT_EQ(handler->error, ErrorClass::none);
  // Every third request met a closing connection (the first of each connection's pair is new).
  EXPECT_GE(stats.connection_retries, 15);
  EXPECT_LE(stats.connection_retries, 30);
  // Every second request reused a connection cleanly, so reuse never stopped.
  EXPECT_EQ(stats.reuse_stopped_after_closes, 0);
  // A resent request is timed from its first attempt: its time on the closing connection stays
  // in it. One at a time, the previous request ended when the server's 50 ms pause began, and
  // the resent one, written then, cannot end before the pause's RST: so its own time and the
  // time since the previous one ended both hold most of the pause. Half of it is left for the
  // client's late wake-ups on a loaded machine (a 2 ms pause with a 1.5 ms bound flapped beside
  // three builds on two cores); a retry timed from its second attempt would take well under 1 ms.
  std::int64_t retried = 0;
  for (std::size_t i = 1; i < source.handlers.size(); ++i) {
    const auto& handler = source.handlers[i];
    if (handler->connection_retries == 0) continue;
    retried += handler->connection_retries;
    EXPECT_GE(handler->end_ns - source.handlers[i - 1]->end_ns, 25'000'000)
        << "a retried request ends after the closing connection's pause";
    EXPECT_GE(handler->end_ns - handler->send_ns, 25'000'000)
        << "a retried request is timed from its first attempt";
  }
  EXPECT_EQ(retried, stats.connection_retries);  // the run's count is its requests' own
}

}  // namespace

namespace {

// Answers every request on its connection, saying `Keep-Alive: timeout=2` when asked to.
HostileServer::Behaviour keep_alive_answers(bool say_timeout) {
  return [say_timeout](Exchange& exchange) {
    const std::string answer =
        std::string("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n") +
        (say_timeout ? "Keep-Alive: timeout=2, max=100\r\n" : "") + "\r\n{}";
    do {
      if (!exchange.send(answer)) return;
    } while (!exchange.receive().empty());
  };
}

// A pooled connection idle longer than a second under the server's own keep-alive timeout is
// not reused: the server may be closing it as the request goes out.
TEST(EngineClosedConnections, AConnectionIdleNearTheServersKeepAliveTimeoutIsNotReused) {
  for (const bool say_timeout : {false, true}) {
    HostileServer server(keep_alive_answers(say_timeout));
    EngineOptions options;
    options.concurrency = 1;
    Engine engine(options);
    // Two requests 1.5 s apart: past timeout=2's retirement at 1 s, within the default 4 s.
    BurstSource source(server.base_url() + "/v1/completions", 2, 1'500'000'000);
    const bench::engine::EngineStats stats = engine.run(source);
    EXPECT_EQ(stats.finished, 2);
    EXPECT_EQ(stats.connections_opened, say_timeout ? 2 : 1) << "timeout said: " << say_timeout;
  }
}

}  // namespace
