#include "bench/app/search/load_search.hpp"

#include <algorithm>
#include <cmath>

namespace bench::app {

std::string_view search_end_name(SearchEnd end) {
  switch (end) {
    case SearchEnd::none: return "none";
    case SearchEnd::resolved: return "resolved";
    case SearchEnd::cap_met: return "cap_met";
    case SearchEnd::start_failed: return "start_failed";
    case SearchEnd::saturated: return "saturated";
    case SearchEnd::time_budget: return "time_budget";
    case SearchEnd::interrupted: return "interrupted";
  }
  return "none";
}

LoadSearch::LoadSearch(LoadSearchPlan plan) : plan_(plan) {
  plan_.cap = std::max(plan_.cap, plan_.start);
  next_ = plan_.start;
}

std::optional<double> LoadSearch::next() const {
  if (end_ != SearchEnd::none) return std::nullopt;
  return next_;
}

void LoadSearch::stop(SearchEnd why) {
  if (end_ == SearchEnd::none) end_ = why;
}

std::optional<double> LoadSearch::answer() const {
  if (!passing_) return std::nullopt;
  return probes_[*passing_].load;
}

const ProbeOutcome* LoadSearch::last_passing() const {
  return passing_ ? &probes_[*passing_] : nullptr;
}

const ProbeOutcome* LoadSearch::first_failing() const {
  return failing_ ? &probes_[*failing_] : nullptr;
}

bool LoadSearch::resolved(double passing, double failing) const {
  const double gap = failing - passing;
  if (plan_.integer && gap <= 1) return true;
  return plan_.step > 0 ? gap <= plan_.step : gap <= plan_.relative * passing;
}

double LoadSearch::midpoint(double passing, double failing) const {
  const double middle = (passing + failing) / 2;
  return plan_.integer ? std::floor(middle) : middle;
}

// While doubling: output tok/s rose by less than 5% over the last passing probe, and median
// E2E latency by more than 20%: more load now only waits in the server's queue.
bool LoadSearch::saturated(const ProbeOutcome& outcome) const {
  if (!passing_) return false;
  const ProbeOutcome& before = probes_[*passing_];
  return outcome.output_throughput < before.output_throughput * (1 + kSaturationThroughputGrowth) &&
         outcome.latency_ms > before.latency_ms * (1 + kSaturationLatencyGrowth);
}

void LoadSearch::record(const ProbeOutcome& outcome) {
  if (end_ != SearchEnd::none) return;
  const bool doubling = !failing_;
  const bool flat = doubling && outcome.met && saturated(outcome);
  probes_.push_back(outcome);
  const std::size_t index = probes_.size() - 1;
  if (outcome.met && (!passing_ || outcome.load > probes_[*passing_].load)) passing_ = index;
  if (!outcome.met && (!failing_ || outcome.load < probes_[*failing_].load)) failing_ = index;
  if (!passing_) {
    end_ = SearchEnd::start_failed;
    return;
  }
  if (flat) {
    end_ = SearchEnd::saturated;
    return;
  }
  const double passing = probes_[*passing_].load;
  if (!failing_) {
    if (passing >= plan_.cap) {
      end_ = SearchEnd::cap_met;
      return;
    }
    next_ = std::min(passing * 2, plan_.cap);
    return;
  }
  const double failing = probes_[*failing_].load;
  if (resolved(passing, failing)) {
    end_ = SearchEnd::resolved;
    return;
  }
  next_ = midpoint(passing, failing);
}

}  // namespace bench::app
