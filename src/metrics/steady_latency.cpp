#include "bench/metrics/steady_latency.hpp"

#include <utility>

namespace bench::metrics {

SteadyLatencyLog::SteadyLatencyLog(std::shared_ptr<SampleBudget> budget)
    : budget_(std::move(budget)) {}

SteadyLatencyLog::~SteadyLatencyLog() { drop(); }

SteadyLatencyLog& SteadyLatencyLog::operator=(SteadyLatencyLog&& other) noexcept {
  if (this != &other) {
    drop();
    budget_ = std::move(other.budget_);
    entries_ = std::move(other.entries_);
    reserved_ = std::exchange(other.reserved_, 0);
    complete_ = other.complete_;
  }
  return *this;
}

void SteadyLatencyLog::drop() {
  if (budget_ != nullptr && reserved_ > 0) budget_->give_back(reserved_ * kValuesPerEntry);
  reserved_ = 0;
  entries_.clear();
  entries_.shrink_to_fit();
}

void SteadyLatencyLog::add(std::int64_t start_ns, std::int64_t end_ns,
                           std::optional<double> ttft_ms, std::optional<double> tpot_ms,
                           double e2e_ms) {
  if (!complete_) return;
  if (entries_.size() == reserved_) {
    if (budget_ == nullptr || !budget_->take(kEntriesPerTake * kValuesPerEntry)) {
      drop();
      complete_ = false;
      return;
    }
    reserved_ += kEntriesPerTake;
  }
  entries_.push_back({start_ns, end_ns, ttft_ms.value_or(-1.0), tpot_ms.value_or(-1.0), e2e_ms});
}

void SteadyLatencyLog::merge(SteadyLatencyLog&& other) {
  if (!complete_ || !other.complete_) {
    drop();
    other.drop();
    complete_ = false;
    return;
  }
  // Its entries move here, and their share of the budget with them (given back to the other's
  // budget, taken from this one: the same one when the threads share it).
  const std::size_t moved = other.entries_.size();
  const std::vector<Entry> entries = std::move(other.entries_);
  other.drop();
  if (budget_ == nullptr || !budget_->take(moved * kValuesPerEntry)) {
    drop();
    complete_ = false;
    return;
  }
  reserved_ += moved;
  entries_.insert(entries_.end(), entries.begin(), entries.end());
}

std::optional<SteadyLatencies> SteadyLatencyLog::within(std::int64_t from_ns,
                                                        std::int64_t to_ns) const {
  if (!complete_) return std::nullopt;
  std::vector<double> ttft, tpot, e2e;
  for (const Entry& entry : entries_) {
    if (entry.start_ns < from_ns || entry.end_ns >= to_ns) continue;
    if (entry.ttft_ms >= 0) ttft.push_back(entry.ttft_ms);
    e2e.push_back(entry.e2e_ms);
    if (entry.tpot_ms >= 0) tpot.push_back(entry.tpot_ms);
  }
  SteadyLatencies out;
  out.requests = static_cast<std::int64_t>(e2e.size());
  out.ttft_ms = summarize(ttft);
  out.tpot_ms = summarize(tpot);
  out.e2e_ms = summarize(e2e);
  return out;
}

std::string_view steady_latency_gap_name(SteadyLatencyGap gap) {
  switch (gap) {
    case SteadyLatencyGap::none: return "none";
    case SteadyLatencyGap::no_window: return "no_window";
    case SteadyLatencyGap::none_inside: return "none_inside";
    case SteadyLatencyGap::few_inside: return "few_inside";
    case SteadyLatencyGap::budget_ran_out: return "budget_ran_out";
    case SteadyLatencyGap::merged: return "merged";
  }
  return "none";
}

}  // namespace bench::metrics
