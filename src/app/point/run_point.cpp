#include "bench/app/point/run_point.hpp"

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "bench/app/point/early_stop.hpp"
#include "bench/app/point/point_checkpoints.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/process_cpu.hpp"
#include "bench/util/share.hpp"

namespace bench::app {

namespace {

std::int64_t thread_cpu_ns() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return timespec_to_ns(now);
}

// How long the calling thread has been runnable but waiting for a CPU: the second field of
// /proc/thread-self/schedstat, the scheduler's run_delay in ns (Linux
// Documentation/scheduler/sched-stats.rst). nullopt where the kernel does not keep it.
std::optional<std::int64_t> thread_run_queue_wait_ns() {
  std::ifstream schedstat("/proc/thread-self/schedstat");
  std::int64_t on_cpu_ns = 0;
  std::int64_t waiting_ns = 0;
  if (!(schedstat >> on_cpu_ns >> waiting_ns)) return std::nullopt;
  return waiting_ns;
}

// Thread `index`'s share of `total` when it is split `parts` ways: the first total % parts
// threads take one more, as h2load shares out its clients and requests.
std::size_t share(std::size_t total, std::size_t parts, std::size_t index) {
  if (total == std::numeric_limits<std::size_t>::max()) return total;
  return util::share_of(total, parts, index);
}

// How many of the indices first, first + stride, ... fall in [low, high).
std::size_t indices_within(std::size_t low, std::size_t high, std::size_t first,
                           std::size_t stride) {
  const std::size_t from = std::max(low, first);
  if (from >= high) return 0;
  const std::size_t next = first + (from - first + stride - 1) / stride * stride;
  return next >= high ? 0 : (high - 1 - next) / stride + 1;
}

// Which requests thread `index` of `threads` sends: the shard's indices (those k with
// k mod shard_count == shard_index, from the point's first request on) dealt out in turn.
struct RequestShare {
  std::size_t first;
  std::size_t stride;
};
RequestShare thread_share(const PointPlan& plan, std::size_t index, std::size_t threads) {
  const std::size_t shards = std::max<std::size_t>(1, plan.shard_count);
  const std::size_t offset = (plan.shard_index + shards - plan.first_request % shards) % shards;
  return {plan.first_request + offset + index * shards, shards * threads};
}

// A closed loop's measured requests of one driver: its indices among the measured ones
// [start, start + measured), so the drivers of all threads (and shards) send each once. They
// start after the warm-up's requests, or where a drained warm-up by time stopped
// (first_request).
std::size_t measured_of(const PointPlan& plan, const RequestShare& share) {
  const std::size_t total = plan.measured_requests;
  if (total == std::numeric_limits<std::size_t>::max()) return total;
  const std::size_t start = std::max(plan.driver.per_prompt.warmup_requests, plan.first_request);
  return indices_within(start, start + total, share.first, share.stride);
}

constexpr std::size_t kMaxLookahead = 4096;
// Image data URLs a thread's bodies built ahead may hold: a dataset of large images (a row of
// 10 MiB photos) then builds fewer ahead rather than filling memory with bodies waiting to be
// sent (the loop builds any it runs short of, and the self-check says so).
constexpr std::uint64_t kImageUrlBytesAhead = std::uint64_t{128} << 20;

// Bodies ready for a whole opening burst of a thread's slots, and some to spare; the cap
// bounds memory at very high concurrency, and the image budget with a dataset's large images.
std::size_t lookahead_of(std::int64_t concurrency, std::uint64_t largest_image_url_bytes) {
  std::size_t lookahead =
      std::min<std::size_t>(static_cast<std::size_t>(concurrency) + 64, kMaxLookahead);
  if (largest_image_url_bytes > 0) {
    lookahead = std::min<std::size_t>(
        lookahead, std::max<std::uint64_t>(2, kImageUrlBytesAhead / largest_image_url_bytes));
  }
  return lookahead;
}

// Threads open their connections one after another; the burst's time is their sum.
void add(engine::PreconnectStats& total, const engine::PreconnectStats& part) {
  total.requested += part.requested;
  total.opened += part.opened;
  total.failed += part.failed;
  total.took_ns += part.took_ns;
}

// What ends a point before its requests are all sent, shared by its client threads.
struct PointStops {
  EarlyStop early;               // its first requests were all refused for good
  UnreachableWatch unreachable;  // no connection to the server for --unreachable-timeout
};

// One client thread: its engine, its driver, and the figures of the requests it sent.
class Worker final : public RecordSink {
 public:
  Worker(const PointPlan& plan, std::size_t index, std::size_t threads, PointStops& stops,
         std::shared_ptr<metrics::SampleBudget> samples,
         const std::shared_ptr<metrics::SampleBudget>& server_samples)
      : accumulator_(plan.summary, samples),
        multi_turn_(samples),
        log_(plan.log),
        spread_(plan.driver.target.spread),
        publishing_(static_cast<bool>(plan.checkpoint)) {
    if (plan.driver.target.urls.size() > 1 && spread_ != nullptr) {
      for (std::size_t k = 0; k < plan.driver.target.urls.size(); ++k) {
        per_server_.emplace_back(plan.summary, server_samples);
      }
    }
    engine::EngineOptions engine = plan.engine;
    engine.concurrency = static_cast<std::int64_t>(
        share(static_cast<std::size_t>(plan.engine.concurrency), threads, index));
    engine_ = std::make_unique<engine::Engine>(engine);
    DriverPlan driver = plan.driver;
    const RequestShare requests = thread_share(plan, index, threads);
    driver.first = requests.first;
    driver.stride = requests.stride;
    driver.per_prompt.measured_requests = measured_of(plan, requests);
    driver.bodies.lookahead =
        lookahead_of(engine.concurrency, driver.bodies.largest_image_url_bytes);
    driver.watchers.early_stop = &stops.early;
    driver.watchers.unreachable = &stops.unreachable;
    if (driver.sessions) {
      // Sessions are dealt whole, like requests: thread i of shard I opens the sessions k
      // with k mod (shards x threads) == its share's first, so no session spans two of them.
      driver.sessions->first = requests.first;
      driver.sessions->stride = requests.stride;
      driver.sessions->open_at_once =
          std::max<std::size_t>(1, share(driver.sessions->open_at_once, threads, index));
    }
    if (driver.sessions && driver.sessions->trees) agent_trees_.emplace(std::move(samples));
    driver_ = make_point_driver(std::move(driver), *this);
  }

  void on_record(const metrics::RequestRecord& record) override {
    first_send_ns_ = std::min(first_send_ns_, record.start_ns);
    next_request_ = std::max(next_request_, record.index + 1);
    accumulator_.add(record);
    if (publishing_) publish_if_due();
    const std::size_t server =
        spread_ != nullptr ? spread_->server_of_request(record.index, record.session) : 0;
    if (!per_server_.empty()) per_server_[server].add(record);
    multi_turn_.add_turn(record);
    if (agent_trees_) agent_trees_->add(record);
    if (log_ != nullptr) log_->write(record, server);
  }

  void on_session(const SessionEnd& session) override {
    multi_turn_.add_session(outcome(session));
    end_tree(session);
  }

  // The sessions the run's end cut short, counted once the loop is done.
  void count_open_sessions() {
    for (const SessionEnd& session : driver_->open_sessions()) {
      multi_turn_.add_session(outcome(session));
      end_tree(session);
    }
  }
  metrics::MultiTurnAccumulator& multi_turn() { return multi_turn_; }
  std::optional<metrics::AgentTreeAccumulator>& agent_trees() { return agent_trees_; }

  void set_epoch(std::int64_t epoch_ns) { driver_->set_epoch(epoch_ns); }

  // Opens this thread's share of the point's connections, before its epoch; with several
  // servers, shared out over them by the spread's weights.
  engine::PreconnectStats preconnect(const PointPlan& plan, std::size_t index,
                                     std::size_t threads) {
    const auto count =
        static_cast<std::int64_t>(share(static_cast<std::size_t>(plan.preconnect), threads, index));
    engine::PreconnectStats opened;
    for (std::size_t k = 0; k < plan.preconnect_urls.size(); ++k) {
      const std::int64_t part = spread_ != nullptr && plan.preconnect_urls.size() > 1
                                    ? spread_->share_of(count, k)
                                    : count;
      if (part > 0) {
        add(opened, engine_->preconnect(plan.preconnect_urls[k], plan.driver.target.headers, part));
      }
    }
    return opened;
  }

  void run(const StopFlag& stop) {
    stop_ = &stop;
    const std::optional<std::int64_t> waited_before = thread_run_queue_wait_ns();
    const std::int64_t cpu_start = thread_cpu_ns();
    try {
      stats_ = engine_->run(*driver_, &stop);
    } catch (...) {
      failure_ = std::current_exception();
    }
    cpu_ns_ = thread_cpu_ns() - cpu_start;
    const std::optional<std::int64_t> waited_after = thread_run_queue_wait_ns();
    if (waited_before && waited_after) run_queue_wait_ns_ = *waited_after - *waited_before;
  }

  // The accumulator's state as last published for checkpoints; none before the first.
  std::optional<metrics::AccumulatorState> published() {
    const std::lock_guard lock(published_mutex_);
    return published_;
  }

  metrics::RunAccumulator& accumulator() { return accumulator_; }
  std::vector<metrics::RunAccumulator>& per_server() { return per_server_; }
  const engine::EngineStats& stats() const { return stats_; }
  std::uint64_t bodies_built_on_loop() const { return driver_->bodies_built_on_loop(); }
  std::int64_t cpu_ns() const { return cpu_ns_; }
  std::optional<std::int64_t> run_queue_wait_ns() const { return run_queue_wait_ns_; }
  std::exception_ptr failure() const { return failure_; }
  // The earliest send of the requests that ended (warm-up too), after the epoch; or none.
  std::int64_t first_send_ns() const { return first_send_ns_; }
  std::uint64_t next_request() const { return next_request_; }

 private:
  // On this thread's loop, as a request ends: a copy of the state, every kCheckpointEveryNs,
  // and at the first request to end after a stop (for the stop's checkpoint).
  void publish_if_due() {
    const std::int64_t now = now_ns();
    const bool first_since_stop =
        !published_since_stop_ && stop_ != nullptr && stop_->load(std::memory_order_relaxed);
    if (now < next_publish_ns_ && !first_since_stop) return;
    published_since_stop_ = published_since_stop_ || first_since_stop;
    next_publish_ns_ = now + kCheckpointEveryNs;
    metrics::AccumulatorState state = accumulator_.state();
    const std::lock_guard lock(published_mutex_);
    published_ = std::move(state);
  }

  void end_tree(const SessionEnd& session) {
    if (agent_trees_) {
      agent_trees_->end_tree(static_cast<std::int64_t>(session.session), session.completed());
    }
  }

  static metrics::SessionOutcome outcome(const SessionEnd& session) {
    return metrics::SessionOutcome{session.completed(), session.failed, session.turns_completed,
                                   session.end_ns - session.start_ns};
  }

  metrics::RunAccumulator accumulator_;
  metrics::MultiTurnAccumulator multi_turn_;                  // --multi-turn only; empty otherwise
  std::optional<metrics::AgentTreeAccumulator> agent_trees_;  // a replayed agent trace only
  RecordLog* log_;
  const ServerSpread* spread_;
  std::vector<metrics::RunAccumulator> per_server_;  // several servers: one each, else none
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<PointDriver> driver_;
  engine::EngineStats stats_;
  std::int64_t cpu_ns_ = 0;
  std::optional<std::int64_t> run_queue_wait_ns_;  // nullopt: the kernel did not say
  std::exception_ptr failure_;
  std::int64_t first_send_ns_ = std::numeric_limits<std::int64_t>::max();
  std::uint64_t next_request_ = 0;
  bool publishing_ = false;         // checkpoints are taken (PointPlan::checkpoint)
  const StopFlag* stop_ = nullptr;  // run()'s, while it runs
  bool published_since_stop_ = false;
  std::int64_t next_publish_ns_ = 0;
  std::mutex published_mutex_;
  std::optional<metrics::AccumulatorState> published_;
};

// Every request the point will send, warm-up included; SIZE_MAX when its length is a time.
std::size_t planned_requests(const PointPlan& plan) {
  if (plan.driver.per_prompt.schedule != nullptr) return plan.driver.per_prompt.schedule->size();
  if (plan.measured_requests == std::numeric_limits<std::size_t>::max()) {
    return plan.measured_requests;
  }
  return plan.driver.per_prompt.warmup_requests + plan.measured_requests;
}

// Waits until the wall clock reads `unix_ns`, looking at `stop` at least every 50 ms; false
// when a stop signal ended the wait.
bool wait_for_wall_clock(std::int64_t unix_ns, const StopFlag& stop) {
  constexpr std::int64_t kPollNs = 50 * kNsPerMs;
  for (;;) {
    if (stop.load()) return false;
    const std::int64_t left_ns = unix_ns - wall_clock_ns();
    if (left_ns <= 0) return true;
    std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(left_ns, kPollNs)));
  }
}

// What the workers' event loops cost, added up over the threads that ran for `wall_ns`, and
// what the whole process used meanwhile (`process_cpu_ns`) of the CPUs it may run on.
metrics::ClientLoad client_load(const std::vector<std::unique_ptr<Worker>>& workers,
                                std::int64_t wall_ns, std::int64_t process_cpu_ns) {
  metrics::ClientLoad load;
  load.threads = workers.size();
  load.wall_s = ns_to_s(wall_ns);
  if (wall_ns > 0) {
    load.process_cpu_share = std::min(
        1.0, static_cast<double>(process_cpu_ns) /
                 (static_cast<double>(wall_ns) * static_cast<double>(util::usable_cores())));
  }
  for (const auto& worker : workers) {
    load.cpu_s += ns_to_s(worker->cpu_ns());
    load.loop_turns += worker->stats().loop_turns;
    load.slow_loop_turns += worker->stats().slow_turns;
    load.bodies_built_on_loop += worker->bodies_built_on_loop();
    load.longest_loop_turn_ns =
        std::max(load.longest_loop_turn_ns, worker->stats().longest_turn_ns);
    load.timer_wakes += worker->stats().timer_wakes;
    load.server_prompt_closes += worker->stats().server_prompt_closes;
    if (worker->stats().reuse_stopped_after_closes > 0) {
      load.reuse_stopped_after_closes = worker->stats().reuse_stopped_after_closes;
      load.reuse_stopped_close_ns =
          std::max(load.reuse_stopped_close_ns, worker->stats().reuse_stopped_close_ns);
    }
    load.late_timer_wakes += worker->stats().late_timer_wakes;
    load.latest_timer_wake_ns =
        std::max(load.latest_timer_wake_ns, worker->stats().latest_timer_wake_ns);
    const std::optional<std::int64_t> waited_ns = worker->run_queue_wait_ns();
    if (waited_ns) load.run_queue_wait_s = load.run_queue_wait_s.value_or(0) + ns_to_s(*waited_ns);
    if (wall_ns > 0) {
      const auto wall = static_cast<double>(wall_ns);
      load.busiest_thread_utilization =
          std::max(load.busiest_thread_utilization, static_cast<double>(worker->cpu_ns()) / wall);
      // Read a moment apart from the wall clock's ends, the sum can pass the wall by a hair.
      load.busiest_thread_demand = std::max(
          load.busiest_thread_demand,
          std::min(1.0, static_cast<double>(worker->cpu_ns() + waited_ns.value_or(0)) / wall));
    }
  }
  // One loop whose wait the kernel did not give leaves the total unknown, not short.
  for (const auto& worker : workers) {
    if (!worker->run_queue_wait_ns()) load.run_queue_wait_s.reset();
  }
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) load.peak_rss_bytes = usage.ru_maxrss * 1024LL;
  return load;
}

// Several servers: each one's figures over the threads, merged as the run's are.
void per_server_figures(std::vector<std::unique_ptr<Worker>>& workers, bool shard,
                        PointResult& result) {
  std::vector<metrics::RunAccumulator>& servers = workers[0]->per_server();
  for (std::size_t k = 0; k < servers.size(); ++k) {
    for (std::size_t i = 1; i < workers.size(); ++i) {
      servers[k].merge(std::move(workers[i]->per_server()[k]));
    }
    if (shard) result.per_server_state.push_back(servers[k].state());
    result.per_server.push_back(servers[k].summarize());
  }
}

// The point's workers, one a thread: one budget of raw latency values for the whole point,
// across its threads; the per-server figures keep raw values of their own, so they never take
// the run's.
std::vector<std::unique_ptr<Worker>> make_workers(const PointPlan& plan, std::size_t threads,
                                                  PointStops& stops) {
  const auto samples = std::make_shared<metrics::SampleBudget>(plan.summary.sample_budget);
  const auto server_samples = std::make_shared<metrics::SampleBudget>(plan.summary.sample_budget);
  std::vector<std::unique_ptr<Worker>> workers;
  for (std::size_t i = 0; i < threads; ++i) {
    workers.push_back(std::make_unique<Worker>(plan, i, threads, stops, samples, server_samples));
  }
  return workers;
}

// Each worker's loop on its own thread, joined; one worker runs on the caller's.
void run_workers(std::vector<std::unique_ptr<Worker>>& workers, const StopFlag& stop) {
  if (workers.size() == 1) {
    workers[0]->run(stop);
    return;
  }
  std::vector<std::thread> running;
  for (auto& worker : workers) running.emplace_back([&worker, &stop] { worker->run(stop); });
  for (std::thread& thread : running) thread.join();
}

// The workers' loops, with checkpoints of their figures taken meanwhile when the plan asks.
void run_with_checkpoints(const PointPlan& plan, std::vector<std::unique_ptr<Worker>>& workers,
                          const StopFlag& stop) {
  if (!plan.checkpoint) {
    run_workers(workers, stop);
    return;
  }
  auto gather = [&workers] {
    std::vector<metrics::AccumulatorState> states;
    for (const auto& worker : workers) {
      if (auto state = worker->published()) states.push_back(std::move(*state));
    }
    return states;
  };
  const PointCheckpoints checkpoints(plan.summary, stop, gather, plan.checkpoint);
  run_workers(workers, stop);
}

void add_preconnect(metrics::ClientLoad& client, const engine::PreconnectStats& preconnect) {
  client.preconnect_requested = preconnect.requested;
  client.preconnect_opened = preconnect.opened;
  client.preconnect_failed = preconnect.failed;
  client.preconnect_s = ns_to_s(preconnect.took_ns);
}

// The workers' figures merged after join, h2load's way: the run's summary, each server's, the
// sessions', and a shard's saved state of each.
void merge_workers(const PointPlan& plan, std::vector<std::unique_ptr<Worker>>& workers,
                   PointResult& result) {
  for (const auto& worker : workers) {
    result.next_request = std::max(result.next_request, worker->next_request());
    if (worker->first_send_ns() == std::numeric_limits<std::int64_t>::max()) continue;
    result.clock.first_send_ns = std::min(
        result.clock.first_send_ns.value_or(worker->first_send_ns()), worker->first_send_ns());
  }
  for (std::size_t i = 1; i < workers.size(); ++i) {
    workers[0]->accumulator().merge(std::move(workers[i]->accumulator()));
  }
  if (plan.shard_count > 1) result.state = workers[0]->accumulator().state();
  result.summary = workers[0]->accumulator().summarize();
  per_server_figures(workers, plan.shard_count > 1, result);
  if (plan.driver.sessions) {
    for (auto& worker : workers) worker->count_open_sessions();
    for (std::size_t i = 1; i < workers.size(); ++i) {
      workers[0]->multi_turn().merge(std::move(workers[i]->multi_turn()));
    }
    if (plan.shard_count > 1) result.multi_turn_state = workers[0]->multi_turn().state();
    result.summary.multi_turn = workers[0]->multi_turn().summarize();
  }
  if (workers[0]->agent_trees()) {
    for (std::size_t i = 1; i < workers.size(); ++i) {
      workers[0]->agent_trees()->merge(std::move(*workers[i]->agent_trees()));
    }
    result.summary.agent_trees = workers[0]->agent_trees()->summarize();
  }
}

}  // namespace

PointResult run_point(const PointPlan& plan, const StopFlag& stop) {
  // More threads than concurrency slots would leave some with none.
  const std::size_t threads = std::clamp<std::size_t>(
      plan.client_threads, 1,
      static_cast<std::size_t>(std::max<std::int64_t>(1, plan.engine.concurrency)));
  PointStops stops{EarlyStop(std::min(kEarlyStopRequests, planned_requests(plan))),
                   UnreachableWatch(plan.unreachable_timeout_ns)};
  std::vector<std::unique_ptr<Worker>> workers = make_workers(plan, threads, stops);
  engine::PreconnectStats preconnect;
  for (std::size_t i = 0; i < threads; ++i)
    add(preconnect, workers[i]->preconnect(plan, i, threads));
  PointResult result;
  if (plan.start_at_unix_ns && !wait_for_wall_clock(*plan.start_at_unix_ns, stop)) {
    result.interrupted = true;
    result.summary = workers[0]->accumulator().summarize();
    return result;
  }
  // The run starts now, with every engine built and its connections open: neither is the
  // schedule's lag. A later phase of a schedule starts at its first request's offset.
  const std::int64_t started_ns = now_ns();
  const std::int64_t process_cpu_start_ns = util::process_cpu_ns();
  const std::int64_t epoch_ns = started_ns - plan.epoch_lead_ns;
  result.clock.epoch_steady_ns = epoch_ns;
  result.clock.epoch_unix_ns = wall_clock_ns() - plan.epoch_lead_ns;
  result.clock.start_at_unix_ns = plan.start_at_unix_ns;
  for (auto& worker : workers) worker->set_epoch(epoch_ns);
  run_with_checkpoints(plan, workers, stop);
  const std::int64_t wall_ns = now_ns() - started_ns;
  const std::int64_t process_cpu_used_ns = util::process_cpu_ns() - process_cpu_start_ns;

  result.stopped_early = stops.early.reason();
  if (result.stopped_early.empty()) result.stopped_early = stops.unreachable.reason();
  for (auto& worker : workers) {
    if (worker->failure()) std::rethrow_exception(worker->failure());
    result.interrupted = result.interrupted || (worker->stats().stopped && stop.load());
  }
  result.client = client_load(workers, wall_ns, process_cpu_used_ns);
  result.client.threads_auto = plan.client_threads_auto;
  result.client.threads_reason = plan.client_threads_reason;
  add_preconnect(result.client, preconnect);
  merge_workers(plan, workers, result);
  return result;
}

}  // namespace bench::app
