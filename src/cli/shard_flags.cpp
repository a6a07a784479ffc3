#include "bench/cli/shard_flags.hpp"

#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "bench/cli/values.hpp"
#include "bench/util/clock.hpp"

namespace bench::cli {

namespace {

constexpr std::int64_t kMaxShards = 100'000;
// A --start-at further ahead is taken for a mistake (milliseconds given as seconds, a wrong
// date) rather than waited for.
constexpr std::int64_t kMaxStartAheadNs = 24 * 3600 * kNsPerSec;

std::optional<std::int64_t> whole_number(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    return std::nullopt;
  }
  return value;
}

std::int64_t env_number(std::string_view name, const std::string& value) {
  const std::optional<std::int64_t> number = whole_number(value);
  if (!number || *number < 0) {
    throw UsageError(
        fmt::format("{}='{}': not a whole number (a shard index or count)", name, value));
  }
  return *number;
}

ShardSpec checked(ShardSpec spec, std::string_view given) {
  if (spec.count < 1 || spec.count > kMaxShards) {
    throw UsageError(fmt::format("{}: the shard count must be 1..{}", given, kMaxShards));
  }
  if (spec.index < 0 || spec.index >= spec.count) {
    throw UsageError(
        fmt::format("{}: the shard index must be 0..{} (0-based: shard 0/{} is the "
                    "first of {})",
                    given, spec.count - 1, spec.count, spec.count));
  }
  return spec;
}

ShardSpec from_shard_flag(const std::string& text) {
  const std::string given = "--shard " + text;
  const std::size_t slash = text.find('/');
  const auto index = whole_number(std::string_view(text).substr(0, slash));
  const auto count = slash == std::string::npos
                         ? std::nullopt
                         : whole_number(std::string_view(text).substr(slash + 1));
  if (!index || !count) throw UsageError(given + ": expected I/N, e.g. --shard 0/4 (0-based)");
  return checked({*index, *count, "--shard"}, given);
}

// --shards N: the index from the scheduler, Kubernetes' first.
ShardSpec from_shards_flag(std::int64_t count, const EnvLookup& env) {
  for (const std::string_view name : {"JOB_COMPLETION_INDEX", "SLURM_PROCID"}) {
    if (const std::optional<std::string> value = env(name)) {
      const std::string given = fmt::format("--shards {} with {}={}", count, name, *value);
      return checked({env_number(name, *value), count, std::string(name)}, given);
    }
  }
  throw UsageError(
      fmt::format("--shards {}: no shard index: give --shard I/{}, or run it as a "
                  "Kubernetes Indexed Job (JOB_COMPLETION_INDEX) or under srun "
                  "(SLURM_PROCID)",
                  count, count));
}

// RFC 3339's date-time: YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM); 't' and a space for 'T'.
std::optional<std::int64_t> rfc3339_unix_ns(const std::string& text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, consumed = 0;
  char separator = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2d%c%2d:%2d:%2d%n", &year, &month, &day, &separator,
                  &hour, &minute, &second, &consumed) != 7 ||
      (separator != 'T' && separator != 't' && separator != ' ') || consumed != 19) {
    return std::nullopt;
  }
  std::size_t at = 19;
  std::int64_t fraction_ns = 0;
  if (at < text.size() && text[at] == '.') {
    std::int64_t scale = kNsPerSec / 10;
    for (++at; at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])); ++at) {
      fraction_ns += (text[at] - '0') * scale;
      scale /= 10;
    }
  }
  std::int64_t offset_s = 0;
  const std::string zone = text.substr(at);
  int offset_hour = 0, offset_minute = 0;
  if (zone == "Z" || zone == "z") {
  } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') &&
             std::sscanf(zone.c_str() + 1, "%2d:%2d", &offset_hour, &offset_minute) == 2) {
    offset_s = (zone[0] == '-' ? -1 : 1) * (offset_hour * 3600 + offset_minute * 60);
  } else {
    return std::nullopt;
  }
  using namespace std::chrono;
  const year_month_day date{std::chrono::year(year),
                            std::chrono::month(static_cast<unsigned>(month)),
                            std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok() || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  const std::int64_t days = sys_days(date).time_since_epoch().count();
  const std::int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset_s;
  return seconds * kNsPerSec + fraction_ns;
}

std::optional<std::int64_t> unix_seconds_ns(const std::string& text) {
  // Whole seconds and the fraction apart: a double of ns since 1970 would lose the last digits.
  const std::size_t dot = text.find('.');
  const std::optional<std::int64_t> seconds = whole_number(std::string_view(text).substr(0, dot));
  if (!seconds || *seconds < 0 || *seconds > 100'000'000'000) return std::nullopt;
  std::int64_t fraction_ns = 0;
  if (dot != std::string::npos) {
    const std::string digits = text.substr(dot + 1);
    if (digits.empty() || digits.size() > 9 || !whole_number(digits)) return std::nullopt;
    fraction_ns = *whole_number(digits + std::string(9 - digits.size(), '0'));
  }
  return *seconds * kNsPerSec + fraction_ns;
}

}  // namespace

ShardSpec resolve_shard(const std::string& shard_flag, std::int64_t shards_flag,
                        const EnvLookup& env) {
  if (!shard_flag.empty()) {
    ShardSpec spec = from_shard_flag(shard_flag);
    if (shards_flag > 0 && shards_flag != spec.count) {
      throw UsageError(
          fmt::format("--shard {} and --shards {}: the counts differ", shard_flag, shards_flag));
    }
    return spec;
  }
  if (shards_flag > 0) return from_shards_flag(shards_flag, env);
  // `srun -n N bench ...` starts N tasks, each told its rank: shards with no flag at all.
  const std::optional<std::string> tasks = env("SLURM_NTASKS");
  const std::optional<std::string> rank = env("SLURM_PROCID");
  if (!tasks || !rank) return {};
  const std::int64_t count = env_number("SLURM_NTASKS", *tasks);
  if (count < 2) return {};
  return checked({env_number("SLURM_PROCID", *rank), count, "SLURM_PROCID"},
                 fmt::format("SLURM_PROCID={} of SLURM_NTASKS={}", *rank, *tasks));
}

std::int64_t parse_start_at(const std::string& text, std::int64_t now_unix_ns) {
  std::optional<std::int64_t> at = rfc3339_unix_ns(text);
  if (!at) at = unix_seconds_ns(text);
  if (!at) {
    throw UsageError(
        fmt::format("--start-at {}: expected an RFC 3339 time "
                    "(2026-12-04T10:30:00Z) or Unix seconds",
                    text));
  }
  if (*at < now_unix_ns) {
    throw UsageError(fmt::format("--start-at {}: that time has passed ({:.3f} s ago)", text,
                                 ns_to_s(now_unix_ns - *at)));
  }
  if (*at - now_unix_ns > kMaxStartAheadNs) {
    throw UsageError(fmt::format("--start-at {}: more than 24 h from now", text));
  }
  return *at;
}

void setup_shard_flags(CLI::App& app, RawRunFlags& raw) {
  app.add_option("--shard", raw.shard,
                 "I/N: run shard I (0-based) of N processes of one benchmark; shard I sends "
                 "requests k with k mod N == I. Needs the same --seed on every shard; merge "
                 "their results with `bench merge`. Under srun -n N it is set from "
                 "SLURM_PROCID/SLURM_NTASKS");
  app.add_option("--shards", raw.shards,
                 "N shards, this one's index from JOB_COMPLETION_INDEX (Kubernetes Indexed "
                 "Job) or SLURM_PROCID")
      ->check(CLI::Range(std::int64_t{1}, kMaxShards));
  app.add_option("--start-at", raw.start_at,
                 "Wait until this time before the first request, so shards start together: "
                 "RFC 3339 (2026-12-04T10:30:00Z) or Unix seconds; Ctrl-C stops the wait");
}

void finish_shard_flags(RunOptions& run, const RawRunFlags& raw, const EnvLookup& env,
                        std::int64_t now_unix_ns) {
  if (!raw.start_at.empty()) {
    run.start_at_unix_ns = parse_start_at(raw.start_at, now_unix_ns);
    run.start_at = raw.start_at;
  }
  const ShardSpec spec = resolve_shard(raw.shard, raw.shards, env);
  run.shard_index = spec.index;
  run.shard_count = spec.count;
  run.shard_source = spec.source;
  if (spec.count == 1) return;
  const std::string given =
      spec.source == "--shard"
          ? fmt::format("--shard {}/{}", spec.index, spec.count)
          : fmt::format("shard {}/{} (from {})", spec.index, spec.count, spec.source);
  if (!run.seed_given) {
    throw UsageError(given +
                     ": every shard must draw the same workload: give all of them the "
                     "same --seed");
  }
  if (run.base_urls.empty()) {
    throw UsageError(given +
                     ": shards load one server: give --base-url (the embedded server "
                     "would be one per shard)");
  }
  if (run.repeat > 1) throw UsageError(given + ": --repeat is not supported with shards");
  // A shard saves its accumulators' state for bench merge; the agent-trace figures (the trees,
  // subagents and cache ceiling of metrics/agent_trees.hpp) have none yet.
  if (workload::replays_agent_sessions(run.dataset)) {
    throw UsageError(given +
                     ": not with --trace-format weka yet: its per-agent figures cannot be "
                     "merged across shards; replay the trace from one process");
  }
  for (const std::int64_t concurrency : run.concurrency) {
    if (concurrency < spec.count) {
      throw UsageError(
          fmt::format("{}: --concurrency {} is below the {} shards: each needs at "
                      "least one request in flight",
                      given, concurrency, spec.count));
    }
  }
}

}  // namespace bench::cli
