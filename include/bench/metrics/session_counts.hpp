#pragma once
// How the sessions of a multi-turn run ended, as counts: one struct for the accumulator, its
// saved state and the summary, so each counter is declared and listed once.
#include <cstdint>
#include <utility>

namespace bench::metrics {

/// How the sessions of a run ended: the one list of session counters (kSessionCounters below),
/// added up by merge, saved in a shard's state and written in the results by visit(): adding a
/// counter is its field and one line of that list.
struct SessionCounts {
  std::int64_t started = 0;          // sessions whose first turn was sent
  std::int64_t completed = 0;        // every turn succeeded
  std::int64_t failed = 0;           // a failed turn ended them
  std::int64_t unfinished = 0;       // the run's end (or a stop) cut them short
  std::int64_t turns_completed = 0;  // successful turns of all sessions

  SessionCounts& operator+=(const SessionCounts& other);
  /// Calls visit(name, field) for each counter, in the list's order ("started", ...).
  template <typename Counts, typename Visit>
  static void visit(Counts& counts, Visit&& visit);
};

inline constexpr std::pair<const char*, std::int64_t SessionCounts::*> kSessionCounters[] = {
    {"started", &SessionCounts::started},
    {"completed", &SessionCounts::completed},
    {"failed", &SessionCounts::failed},
    {"unfinished", &SessionCounts::unfinished},
    {"turns_completed", &SessionCounts::turns_completed},
};

inline SessionCounts& SessionCounts::operator+=(const SessionCounts& other) {
  for (const auto& [name, field] : kSessionCounters) this->*field += other.*field;
  return *this;
}

template <typename Counts, typename Visit>
void SessionCounts::visit(Counts& counts, Visit&& visit) {
  for (const auto& [name, field] : kSessionCounters) visit(name, counts.*field);
}

}  // namespace bench::metrics
