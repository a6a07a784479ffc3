#include "bench/metrics/timeline.hpp"

#include <algorithm>
#include <cmath>

#include "bench/util/clock.hpp"
#include "bench/util/share.hpp"

namespace bench::metrics {

namespace {

// About 11 minutes at 10 ms steps (3 MiB); beyond that, steps are merged in pairs (20 ms up to
// 22 minutes, 40 ms up to 44, ...), so memory stays bounded however long a run lasts.
constexpr std::size_t kMaxSteps = std::size_t{1} << 16;

// How many of a request's completion tokens each text chunk carried: exact when the server
// said so per chunk, else completion_tokens shared out evenly (the same estimate the ITL uses),
// so the timeline's tokens always add up to total_output_tokens.
std::int64_t tokens_of_chunk(const RequestRecord& record, std::size_t chunk) {
  const std::size_t chunks = record.text_chunk_ns.size();
  if (record.text_chunk_tokens.size() == chunks) return record.text_chunk_tokens[chunk];
  const std::int64_t total = std::max<std::int64_t>(0, record.completion_tokens);
  const auto n = static_cast<std::int64_t>(chunks);
  const auto i = static_cast<std::int64_t>(chunk);
  return util::share_of(total, n, i);
}

}  // namespace

Timeline::Timeline(std::int64_t origin_ns, std::int64_t step_ns)
    : origin_ns_(origin_ns), step_ns_(std::max<std::int64_t>(1, step_ns)) {}

void Timeline::coarsen() {
  for (std::size_t i = 0; i < steps_.size(); i += 2) {
    Step merged = steps_[i];
    if (i + 1 < steps_.size()) merged += steps_[i + 1];
    steps_[i / 2] = merged;
  }
  steps_.resize((steps_.size() + 1) / 2);
  step_ns_ *= 2;
}

Timeline::Step& Timeline::at(std::int64_t time_ns) {
  const std::int64_t offset_ns = std::max<std::int64_t>(0, time_ns - origin_ns_);
  while (static_cast<std::size_t>(offset_ns / step_ns_) >= kMaxSteps) coarsen();
  const auto index = static_cast<std::size_t>(offset_ns / step_ns_);
  if (index >= steps_.size()) steps_.resize(index + 1);
  return steps_[index];
}

void Timeline::add(const RequestRecord& record) {
  ++at(record.start_ns).started;
  Step& end = at(record.end_ns);
  ++end.finished;
  if (record.ok()) {
    ++end.completed;
  } else if (!record.cancelled()) {
    ++end.errors;
  }
  if (!record.ok()) return;
  if (!record.streamed) {
    // A whole body brings every token at once, at its end.
    at(record.end_ns).output_tokens += std::max<std::int64_t>(0, record.completion_tokens);
  }
  for (std::size_t i = 0; i < record.text_chunk_ns.size(); ++i) {
    at(record.text_chunk_ns[i]).output_tokens += tokens_of_chunk(record, i);
  }
  // Prompt tokens are done when the first token comes back: that is when prefill ended.
  if (record.prompt_tokens > 0) {
    at(record.first_token_ns >= 0 ? record.first_token_ns : record.end_ns).input_tokens +=
        record.prompt_tokens;
  }
}

void Timeline::merge(const Timeline& other) {
  // Both to the coarser step first; steps only ever double, so the finer divides the coarser.
  while (step_ns_ < other.step_ns_) coarsen();
  for (std::size_t i = 0; i < other.steps_.size(); ++i) {
    at(other.origin_ns_ + static_cast<std::int64_t>(i) * other.step_ns_) += other.steps_[i];
  }
}

std::size_t Timeline::first_step() const {
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    if (steps_[i].started > 0) return i;
  }
  return 0;
}

std::int64_t Timeline::bucket_width_ns(std::int64_t bucket_ns) const {
  std::int64_t per_bucket = std::max<std::int64_t>(1, bucket_ns / step_ns_);
  const auto steps =
      static_cast<std::int64_t>(steps_.size() - std::min(steps_.size(), first_step()));
  while ((steps + per_bucket - 1) / per_bucket > static_cast<std::int64_t>(kMaxBuckets)) {
    per_bucket *= 2;
  }
  return per_bucket * step_ns_;
}

std::vector<TimelineBucket> Timeline::buckets(std::int64_t bucket_ns) const {
  const std::int64_t per_bucket = bucket_width_ns(bucket_ns) / step_ns_;
  const double step_s = ns_to_s(step_ns_);
  const std::size_t first = first_step();
  std::vector<TimelineBucket> out;
  std::vector<std::int64_t> steps_in;  // per bucket: how many steps it holds
  std::int64_t in_flight = 0;
  for (std::size_t i = first; i < steps_.size(); ++i) {
    const auto bucket = static_cast<std::size_t>(static_cast<std::int64_t>(i - first) / per_bucket);
    if (bucket >= out.size()) {
      out.emplace_back();
      out.back().t_s =
          static_cast<double>(bucket) * static_cast<double>(per_bucket * step_ns_) / 1e9;
      steps_in.push_back(0);
    }
    const Step& step = steps_[i];
    TimelineBucket& b = out[bucket];
    b.started += step.started;
    b.finished += step.finished;
    b.errors += step.errors;
    b.output_tokens += step.output_tokens;
    b.input_tokens += step.input_tokens;
    in_flight += step.started - step.finished;
    b.in_flight = in_flight;
    b.mean_in_flight += static_cast<double>(in_flight);  // a sum until divided below
    ++steps_in[bucket];
  }
  for (std::size_t k = 0; k < out.size(); ++k) {
    out[k].width_s = static_cast<double>(steps_in[k]) * step_s;
    out[k].mean_in_flight /= static_cast<double>(steps_in[k]);
  }
  return out;
}

SteadyState Timeline::steady_state(std::int64_t target_in_flight) const {
  std::vector<std::int64_t> in_flight(steps_.size());
  std::int64_t current = 0, peak = 0;
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    current += steps_[i].started - steps_[i].finished;
    in_flight[i] = current;
    peak = std::max(peak, current);
  }
  SteadyState steady;
  steady.target_in_flight = target_in_flight > 0 ? target_in_flight : peak;
  if (steady.target_in_flight <= 0) return steady;
  const auto threshold =
      static_cast<std::int64_t>(std::ceil(0.9 * static_cast<double>(steady.target_in_flight)));

  // A step is steady when in flight reached the threshold at its start (the previous step's
  // end) or at its end: see the header for why both edges count.
  auto steady_step = [&](std::size_t i) {
    return in_flight[i] >= threshold || (i > 0 && in_flight[i - 1] >= threshold);
  };
  std::size_t best_start = 0, best_length = 0;
  for (std::size_t i = 0; i < in_flight.size();) {
    if (!steady_step(i)) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < in_flight.size() && steady_step(j)) ++j;
    if (j - i > best_length) {
      best_start = i;
      best_length = j - i;
    }
    i = j;
  }
  if (best_length < 2) return steady;

  std::int64_t output = 0, input = 0, completed = 0;
  for (std::size_t i = best_start; i < best_start + best_length; ++i) {
    output += steps_[i].output_tokens;
    input += steps_[i].input_tokens;
    completed += steps_[i].completed;
  }
  const double seconds = static_cast<double>(best_length) * static_cast<double>(step_ns_) / 1e9;
  steady.found = true;
  steady.start_s =
      static_cast<double>(best_start - first_step()) * static_cast<double>(step_ns_) / 1e9;
  steady.end_s = steady.start_s + seconds;
  steady.from_ns = origin_ns_ + static_cast<std::int64_t>(best_start) * step_ns_;
  steady.to_ns = steady.from_ns + static_cast<std::int64_t>(best_length) * step_ns_;
  steady.output_throughput = static_cast<double>(output) / seconds;
  steady.input_throughput = static_cast<double>(input) / seconds;
  steady.total_throughput = steady.output_throughput + steady.input_throughput;
  steady.request_throughput = static_cast<double>(completed) / seconds;
  return steady;
}

}  // namespace bench::metrics
