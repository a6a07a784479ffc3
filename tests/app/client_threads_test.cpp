// --client-threads auto: the loops chosen from a point's expected load and the usable cores.
#include "bench/app/plan/client_threads.hpp"
#include "bench/util/process_cpu.hpp"

#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace {

using bench::app::choose_client_threads;
using bench::app::ClientThreadsInput;

// A closed loop of `streams` against a server pacing a chunk every `gap_ms`.
ClientThreadsInput closed_loop(std::int64_t streams, double gap_ms, std::size_t cores) {
  ClientThreadsInput in;
  in.usable_cores = cores;
  in.concurrency = streams;
  in.chunk_gap_ms = gap_ms;
  in.chunks_per_request = 64;
  return in;
}

TEST(ClientThreads, ALightLoadGetsOneLoopAndSaysWhatItNeeds) {
  // The demo: 32 streams, a token every 10 ms, 64 a request, beside the embedded server.
  ClientThreadsInput in = closed_loop(32, 10, 8);
  in.first_chunk_ms = 50;
  in.server_threads = 1;
  const auto choice = choose_client_threads(in);
  EXPECT_EQ(choice.loops, 1u);
  EXPECT_LT(choice.cores_needed, 0.1);
  EXPECT_EQ(choice.reason, "auto: 1 event loop, the expected load needs 0.06 of a core");
}

// A server whose pace the plan cannot know is planned at the assumed gap, and the reason says it
// was assumed; a known gap of the same value chooses the same and says nothing of it.
TEST(ClientThreads, AnUnknownChunkGapIsPlannedAtTheAssumedOneAndSaidSo) {
  ClientThreadsInput unknown = closed_loop(1024, 20, 32);
  unknown.chunk_gap_ms.reset();
  const auto assumed = choose_client_threads(unknown);
  const auto known = choose_client_threads(closed_loop(1024, 20, 32));
  EXPECT_EQ(assumed.loops, known.loops);
  EXPECT_DOUBLE_EQ(assumed.cores_needed, known.cores_needed);
  EXPECT_EQ(assumed.reason, known.reason + ", at an assumed 20 ms between a stream's chunks");
  EXPECT_EQ(known.reason.find("assumed"), std::string::npos) << known.reason;
}

TEST(ClientThreads, AHeavyLoadOnEightFreeCoresGetsSeveralLoops) {
  // 4,096 streams at the assumed gap: about 200,000 chunks/s, over four cores of loop CPU.
  const auto choice = choose_client_threads(closed_loop(4096, 20, 8));
  EXPECT_GT(choice.cores_needed, 4.0);
  EXPECT_EQ(choice.loops, 8u);  // every usable core, none kept: no embedded server
  EXPECT_NE(choice.reason.find("auto: 8 event loops"), std::string::npos) << choice.reason;
  EXPECT_NE(choice.reason.find("8 usable cores"), std::string::npos) << choice.reason;
  // Within the cores, just enough loops to keep each at most half busy.
  const auto fewer = choose_client_threads(closed_loop(1024, 20, 32));
  EXPECT_EQ(fewer.loops, 3u) << fewer.reason;  // 51,200 chunks/s + starts: 1.06 cores
}

TEST(ClientThreads, TheEmbeddedServerKeepsItsCore) {
  ClientThreadsInput in = closed_loop(4096, 20, 8);
  in.server_threads = 1;
  const auto choice = choose_client_threads(in);
  EXPECT_EQ(choice.loops, 7u);
  EXPECT_NE(choice.reason.find("8 usable cores, 1 for the embedded server"), std::string::npos)
      << choice.reason;
  // On two cores one is left; on one core the loop shares it with the server.
  in.usable_cores = 2;
  EXPECT_EQ(choose_client_threads(in).loops, 1u);
  in.usable_cores = 1;
  EXPECT_EQ(choose_client_threads(in).loops, 1u);
}

TEST(ClientThreads, NeverMoreLoopsThanStreams) {
  // A firehose (no gap) needs all it can get, but two streams keep two loops busy at most.
  const auto choice = choose_client_threads(closed_loop(2, 0, 16));
  EXPECT_EQ(choice.loops, 2u);
  EXPECT_NE(choice.reason.find("at most one loop a stream: concurrency 2"), std::string::npos)
      << choice.reason;
  EXPECT_EQ(choose_client_threads(closed_loop(1, 0, 16)).loops, 1u);
}

TEST(ClientThreads, AnOpenLoopIsLoadedByItsArrivals) {
  ClientThreadsInput in = closed_loop(65536, 20, 8);
  in.rate_per_s = 10;  // 640 chunks/s and 10 starts: light, whatever the concurrency cap
  EXPECT_EQ(choose_client_threads(in).loops, 1u);
  in.rate_per_s = 2000;  // 128,000 chunks/s: 2.6 cores
  EXPECT_EQ(choose_client_threads(in).loops, 6u);
  // An arrival rate the concurrency cap holds back loads no more than the closed loop would.
  in.concurrency = 16;
  EXPECT_EQ(choose_client_threads(in).loops, 1u);
}

TEST(ClientThreads, AnExplicitCountSaysSo) {
  EXPECT_EQ(bench::app::explicit_client_threads_reason(2, 2), "--client-threads 2: 2 event loops");
  EXPECT_EQ(bench::app::explicit_client_threads_reason(4, 1),
            "--client-threads 4: 1 event loop (at most one loop a stream)");
}

TEST(ClientThreads, UsableCoresAreAtLeastOne) { EXPECT_GE(bench::util::usable_cores(), 1u); }

}  // namespace
