#pragma once
// What the client itself used while it measured: the figures of bench's self-check, measured
// by the app after its event loops join, checked (app/self_check) and reported (report).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace bench::metrics {

struct ClientLoad {
  double wall_s = 0;           // the run's wall time
  double cpu_s = 0;            // CPU time of the event loops (engine threads), added up
  std::size_t threads = 1;     // event loops that sent requests
  bool threads_auto = false;   // chosen by --client-threads auto (else given by the flag)
  std::string threads_reason;  // why that many, one line; empty when not known (a merge)
  double busiest_thread_utilization = 0;  // CPU / wall of the busiest event loop, 0..1
  // The share of the run the busiest loop was runnable: its CPU time plus the time it was runnable
  // but waited for a CPU (the kernel's run_delay, /proc/thread-self/schedstat), over the wall
  // time, 0..1. Its CPU share alone where the kernel does not say.
  double busiest_thread_demand = 0;
  std::optional<double> run_queue_wait_s;  // all loops' run_delay added up; nullopt: unknown
  // CPU time of the whole process (its event loops, prompt producer and, with --sim-*, the
  // embedded server) over the wall time times the CPUs it may run on, 0..1: whether the waits
  // for a CPU were for bench's own work. nullopt when not measured (a merge of shards).
  std::optional<double> process_cpu_share;
  std::int64_t loop_turns = 0;       // event-loop turns, all threads
  std::int64_t slow_loop_turns = 0;  // of which longer than 1 ms
  std::int64_t longest_loop_turn_ns = 0;
  // Sleeps the loops' timers ended, and how late the host ran the loop after them
  // (EngineStats): over 1 ms late is the host's delay, not the client's work.
  std::int64_t timer_wakes = 0;
  std::int64_t late_timer_wakes = 0;
  std::int64_t latest_timer_wake_ns = 0;
  // Request bodies the event loop had to build itself because the prompt producer was behind
  // (PromptFeed::built_by_caller): each may have delayed a send or a read.
  std::uint64_t bodies_built_on_loop = 0;
  std::int64_t peak_rss_bytes = 0;  // the process's peak resident memory so far (getrusage)
  // Connections opened before the run's epoch (--preconnect), and what that burst took: none of
  // it is in any latency or throughput figure.
  std::int64_t preconnect_requested = 0;
  std::int64_t preconnect_opened = 0;
  std::int64_t preconnect_failed = 0;
  double preconnect_s = 0;
  // Connections the server closed within a second of their response (EngineStats), and whether
  // an event loop stopped reusing connections for it (then one new connection per request),
  // with how soon after its response the latest close of the deciding streak was seen.
  std::int64_t server_prompt_closes = 0;
  std::int64_t reuse_stopped_after_closes = 0;  // closes in a row that stopped it; 0: never
  std::int64_t reuse_stopped_close_ns = 0;
  bool reuse_stopped() const { return reuse_stopped_after_closes > 0; }

  /// The client's CPU per 1,000 output tokens, ms: the one computation the text report and the
  /// JSON's client.cpu_ms_per_1k_output_tokens share. Unknown (nullopt) when no token came.
  std::optional<double> cpu_ms_per_1k_output_tokens(std::int64_t output_tokens) const {
    if (output_tokens <= 0) return std::nullopt;
    return cpu_s / static_cast<double>(output_tokens) * 1e6;
  }
};

}  // namespace bench::metrics
