// Chaos suite: output paths that are not regular files (issue 43, item 3), through the real
// binary. Each case uses a path of its own making in a temporary folder (a symlink, a FIFO, a
// Unix socket, a pipe's descriptor, a private character device node), never a shared one such
// as /dev/full: should the fix regress, only the test's own node is replaced.
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/cli/exit_codes.hpp"
#include "bench/sim/sim_server.hpp"
#include "jsonl.hpp"
#include "quick_sim.hpp"
#include "run_process.hpp"

namespace chaos_output_paths {

using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

// A short run of 4 requests against `server`, with the outputs in `more`.
ProcessResult short_run(const bench::sim::SimServer& server, std::vector<std::string> more) {
  std::vector<std::string> args = {"--base-url",        server.base_url(),
                                   "--no-answer-check", "--quiet",
                                   "--num-prompts",     "4",
                                   "--output-len",      "4",
                                   "--concurrency",     "2"};
  args.insert(args.end(), more.begin(), more.end());
  bench::testing::ProcessOptions options;
  options.timeout = std::chrono::seconds(60);
  return run_process(BENCH_BINARY, args, options);
}

bool is_kind(const std::string& path, mode_t kind) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0 && (info.st_mode & S_IFMT) == kind;
}

// Everything read from `fd` until its writer closes it, or until `give_up` is set and nothing
// more comes within 200 ms (so a test whose writer never came cannot hang).
std::string drain(int fd, const std::atomic<bool>& give_up) {
  std::string got;
  char buffer[65536];
  bool any_writer_seen = false;
  while (true) {
    pollfd ready{fd, POLLIN, 0};
    const int n = ::poll(&ready, 1, 200);
    if (n == 0) {
      if (give_up.load()) return got;
      continue;
    }
    const ssize_t size = ::read(fd, buffer, sizeof buffer);
    if (size > 0) {
      got.append(buffer, static_cast<std::size_t>(size));
      any_writer_seen = true;
    } else if (size == 0 && (any_writer_seen || give_up.load())) {
      return got;
    } else if (size == 0) {
      // A FIFO with no writer yet reads as at its end: wait for one.
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    } else if (errno != EAGAIN && errno != EINTR) {
      return got;
    }
  }
}

// A symlink is followed: its target is replaced whole, the link stays a link.
TEST(OutputPaths, ASymlinkIsFollowedAndKept) {
  bench::sim::SimServer server(bench::testing::quick_sim());
  TempDir dir;
  fs::create_directory(dir.file("results"));
  const std::string target = dir.file("results/run.json");
  std::ofstream(target) << "old";
  fs::create_symlink("results/run.json", dir.file("latest.json"));
  const ProcessResult run = short_run(server, {"--output-file", dir.file("latest.json")});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(fs::is_symlink(dir.file("latest.json")));
  const json results = json::parse(bench::testing::read_file(target));
  EXPECT_EQ(results["completed"], 4);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.file("results")), fs::directory_iterator()),
            1);  // no temporary file left beside the target
}

// `mkfifo f; bench --save-requests f & cat f`: the FIFO is written in place, line by line.
TEST(OutputPaths, AFifoIsWrittenInPlace) {
  bench::sim::SimServer server(bench::testing::quick_sim());
  TempDir dir;
  const std::string fifo = dir.file("requests.jsonl");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(reader, 0);
  std::atomic<bool> give_up{false};
  std::string got;
  std::thread reading([&] { got = drain(reader, give_up); });
  const ProcessResult run = short_run(server, {"--save-requests", fifo});
  give_up = true;
  reading.join();
  ::close(reader);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(is_kind(fifo, S_IFIFO)) << "the FIFO was replaced";
  EXPECT_EQ(std::count(got.begin(), got.end(), '\n'), 4) << got;
}

// A Unix socket is connected to and written.
TEST(OutputPaths, AUnixSocketIsWrittenInPlace) {
  bench::sim::SimServer server(bench::testing::quick_sim());
  TempDir dir;
  const std::string path = dir.file("results.sock");
  const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof address.sun_path);
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  ASSERT_EQ(::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  std::atomic<bool> give_up{false};
  std::string got;
  std::thread accepting([&] {
    while (!give_up.load()) {
      pollfd ready{listener, POLLIN, 0};
      if (::poll(&ready, 1, 200) <= 0) continue;
      const int peer = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
      if (peer < 0) continue;
      got += drain(peer, give_up);
      ::close(peer);
      return;
    }
  });
  const ProcessResult run = short_run(server, {"--output-file", path});
  give_up = true;
  accepting.join();
  ::close(listener);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(is_kind(path, S_IFSOCK)) << "the socket was replaced";
  const json results = json::parse(got, nullptr, false);
  ASSERT_TRUE(results.is_object()) << got;
  EXPECT_EQ(results["completed"], 4);
}

// bash's `--output-file >(jq .)` names a pipe's descriptor, /dev/fd/N: written in place.
TEST(OutputPaths, AnOpenDescriptorIsWrittenInPlace) {
  bench::sim::SimServer server(bench::testing::quick_sim());
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);  // no O_CLOEXEC: bench inherits the write end, as from bash
  ::fcntl(pipe_fds[0], F_SETFD, FD_CLOEXEC);
  std::atomic<bool> give_up{false};
  std::string got;
  std::thread reading([&] { got = drain(pipe_fds[0], give_up); });
  const ProcessResult run =
      short_run(server, {"--output-file", "/dev/fd/" + std::to_string(pipe_fds[1])});
  ::close(pipe_fds[1]);  // the reader sees the end once bench's copy is closed too
  give_up = true;
  reading.join();
  ::close(pipe_fds[0]);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const json results = json::parse(got, nullptr, false);
  ASSERT_TRUE(results.is_object()) << run.err << got;
  EXPECT_EQ(results["completed"], 4);
}

// `--output-file /dev/full`, on a private node of the same device (char 1,7) so that a regression
// replaces only the test's own: ENOSPC is one line and exit 3, the device stays a device, and the
// other outputs are written.
TEST(OutputPaths, AFullDeviceIsOneErrorLineAndTheOtherFilesAreKept) {
  TempDir dir;
  const std::string full = dir.file("full");
  if (::geteuid() != 0 || ::mknod(full.c_str(), S_IFCHR | 0666, ::makedev(1, 7)) != 0) {
    GTEST_SKIP() << "needs root (CAP_MKNOD) to make a private /dev/full node";
  }
  bench::sim::SimServer server(bench::testing::quick_sim());
  const ProcessResult run = short_run(server, {"--output-file", full, "--save-requests",
                                               dir.file("r.jsonl"), "--html", dir.file("r.html")});
  EXPECT_EQ(run.exit_code, bench::cli::kExitRunFailed) << run.err;
  EXPECT_TRUE(is_kind(full, S_IFCHR)) << "the device node was replaced by a file";
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.err.find("cannot write '" + full + "'"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("No space left on device"), std::string::npos) << run.err;
  EXPECT_EQ(bench::testing::read_jsonl(dir.file("r.jsonl")).size(), 4u);
  EXPECT_TRUE(fs::is_regular_file(dir.file("r.html")));
  EXPECT_NE(run.out.find("bench results"), std::string::npos);  // the report is still printed
}

// A block device is a disk: neither written in place nor replaced, but refused before anything
// is sent (on a private node of the loop device, never opened).
TEST(OutputPaths, ABlockDeviceIsRefusedBeforeAnythingIsSent) {
  TempDir dir;
  const std::string disk = dir.file("disk");
  if (::geteuid() != 0 || ::mknod(disk.c_str(), S_IFBLK | 0600, ::makedev(7, 0)) != 0) {
    GTEST_SKIP() << "needs root (CAP_MKNOD) to make a private block device node";
  }
  bench::sim::SimServer server(bench::testing::quick_sim());
  const ProcessResult run = short_run(server, {"--output-file", disk});
  EXPECT_EQ(run.exit_code, bench::cli::kExitUsage) << run.err;
  EXPECT_NE(run.err.find("--output-file: '" + disk + "' is a block device"), std::string::npos)
      << run.err;
  EXPECT_TRUE(is_kind(disk, S_IFBLK));
  EXPECT_EQ(server.requests_served(), 0u);
}

}  // namespace chaos_output_paths
