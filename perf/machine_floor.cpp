// What this machine allows any client, before bench's own code: the cost of the system calls a
// paced chunk cannot avoid, and how often the core the client runs on is taken away. perf/run
// prints it beside the fidelity rows, so a figure that misses its target says whether the
// machine could have met it at all.
//
//   machine_floor [SECONDS [costs|stalls|timer]]
//                   SECONDS (default 5): how long to spin, then how long to sleep; a last word
//                   measures only that part
//
// Lines, on stdout:
//   syscall US      a null system call (getppid)
//   poll US         poll() of one idle loopback TCP socket with a zero timeout: libcurl 7.88
//                   makes one after every read
//   recv US         recv() of 100 bytes already queued on a loopback TCP socket
//   stalls COUNT MAX_MS SHARE_PERCENT
//                   gaps over 1 ms while one thread spins reading the clock: how many, the
//                   longest, and the share of instants that fall at least 1 ms before the end of
//                   a gap (what a client that cost nothing would read over 1 ms late)
//   timer P50_MS P99_MS MAX_MS LATE_PERCENT
//                   how late absolute sleeps (clock_nanosleep) wake, with gaps drawn as the
//                   trace row's arrivals are (exponential, mean 5 ms, seeded): the wake-up a
//                   client that waits for its next arrival cannot beat, and the share of them
//                   over 1 ms late
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/metrics/percentile.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/unique_fd.hpp"

namespace {

using bench::kNsPerMs;
using bench::now_ns;
using bench::UniqueFd;

// A socket call's descriptor, or an error: every socket here is needed.
UniqueFd checked(int fd) {
  if (fd < 0) throw std::runtime_error("socket call failed");
  return UniqueFd(fd);
}

// A connected loopback TCP pair: `reader` receives what `writer` sends.
struct LoopbackPair {
  UniqueFd listener = checked(::socket(AF_INET, SOCK_STREAM, 0));
  UniqueFd reader = checked(::socket(AF_INET, SOCK_STREAM, 0));
  UniqueFd writer = accept_from(listener, reader);  // members start in this order

  static UniqueFd accept_from(const UniqueFd& listener, const UniqueFd& reader) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    auto* raw = reinterpret_cast<sockaddr*>(&address);
    if (::bind(listener.get(), raw, length) != 0 || ::listen(listener.get(), 1) != 0 ||
        ::getsockname(listener.get(), raw, &length) != 0 ||
        ::connect(reader.get(), raw, length) != 0) {
      throw std::runtime_error("loopback connection failed");
    }
    UniqueFd accepted = checked(::accept(listener.get(), nullptr, nullptr));
    const int on = 1;
    ::setsockopt(accepted.get(), IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    return accepted;
  }
};

template <typename Call>
double us_per_call(int calls, Call call) {
  const std::int64_t start = now_ns();
  for (int i = 0; i < calls; ++i) call();
  return static_cast<double>(now_ns() - start) / 1e3 / calls;
}

// recv() of 100 queued bytes, in rounds: queue a batch, let it land, time reading it back.
double recv_us(const LoopbackPair& pair) {
  constexpr int kRounds = 50;
  constexpr int kPerRound = 2000;
  std::array<char, 100> message{};
  std::int64_t spent_ns = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kPerRound; ++i) {
      if (::send(pair.writer.get(), message.data(), message.size(), 0) < 0) {
        throw std::runtime_error("send failed");
      }
    }
    ::usleep(1000);
    const std::int64_t start = now_ns();
    for (int i = 0; i < kPerRound; ++i) {
      ::recv(pair.reader.get(), message.data(), message.size(), MSG_DONTWAIT);
    }
    spent_ns += now_ns() - start;
  }
  return static_cast<double>(spent_ns) / 1e3 / (kRounds * kPerRound);
}

void print_stalls(double seconds) {
  const auto span = static_cast<std::int64_t>(seconds * 1e9);
  const std::int64_t start = now_ns();
  std::int64_t previous = start;
  std::int64_t longest = 0;
  std::int64_t late_ns = 0;  // instants that a gap delays by more than 1 ms
  int count = 0;
  for (std::int64_t t = start; t - start < span; t = now_ns()) {
    const std::int64_t gap = t - previous;
    previous = t;
    if (gap <= kNsPerMs) continue;
    ++count;
    longest = std::max(longest, gap);
    late_ns += gap - kNsPerMs;
  }
  fmt::print("stalls {} {:.3f} {:.3f}\n", count, bench::ns_to_ms(longest),
             100.0 * static_cast<double>(late_ns) / static_cast<double>(span));
}

void print_timer(double seconds) {
  constexpr double kMeanGapNs = 5e6;
  std::mt19937_64 draws(7);
  std::exponential_distribution<double> gap_ns(1.0 / kMeanGapNs);
  const auto sleeps = static_cast<std::size_t>(seconds * 1e9 / kMeanGapNs);
  std::vector<double> late_ms;
  late_ms.reserve(sleeps);
  std::int64_t due = now_ns();
  for (std::size_t i = 0; i < sleeps; ++i) {
    due += static_cast<std::int64_t>(gap_ns(draws));
    const timespec at{static_cast<time_t>(due / bench::kNsPerSec), due % bench::kNsPerSec};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, nullptr);
    late_ms.push_back(bench::ns_to_ms(now_ns() - due));
  }
  const auto over_1ms =
      std::count_if(late_ms.begin(), late_ms.end(), [](double late) { return late > 1.0; });
  const bench::metrics::Distribution late = bench::metrics::summarize(late_ms);
  fmt::print("timer {:.3f} {:.3f} {:.3f} {:.2f}\n", late.median, late.p99, late.max,
             100.0 * static_cast<double>(over_1ms) / static_cast<double>(late.count));
}

void print_costs() {
  constexpr int kCalls = 200'000;
  fmt::print("syscall {:.3f}\n", us_per_call(kCalls, [] { ::syscall(SYS_getppid); }));
  const LoopbackPair pair;
  pollfd idle{pair.reader.get(), POLLIN, 0};
  fmt::print("poll {:.3f}\n", us_per_call(kCalls, [&] { ::poll(&idle, 1, 0); }));
  fmt::print("recv {:.3f}\n", recv_us(pair));
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 5.0;
  const std::string only = argc > 2 ? argv[2] : "";
  if (argc > 3 || !(seconds > 0) ||
      !(only.empty() || only == "costs" || only == "stalls" || only == "timer")) {
    std::fprintf(stderr, "usage: machine_floor [SECONDS [costs|stalls|timer]]\n");
    return 2;
  }
  try {
    if (only.empty() || only == "costs") print_costs();
    if (only.empty() || only == "stalls") print_stalls(seconds);
    if (only.empty() || only == "timer") print_timer(seconds);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "machine_floor: %s\n", error.what());
    return 1;
  }
  return 0;
}
