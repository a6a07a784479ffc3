#include "bench/sim/faults.hpp"

#include <algorithm>
#include <cmath>

#include "bench/util/clock.hpp"

namespace bench::sim {

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

FaultPlan draw_fault_plan(const SimOptions& options, std::uint64_t request_seed) {
  SplitMix64 random(request_seed);
  // One draw per kind, always in this order and always taken, so each kind's choice depends on
  // the request's seed and its own fraction only.
  const auto meets = [&random](double fraction) { return random.uniform() < fraction; };
  const bool http_429 = meets(options.fail_429_fraction);
  const bool http_503 = meets(options.fail_503_fraction);
  const bool http_500 = meets(options.fail_500_fraction);
  const bool reset = meets(options.reset_fraction);
  const bool truncate = meets(options.truncate_fraction);
  const bool stream_error = meets(options.stream_error_fraction);

  FaultPlan plan;
  plan.http_status = http_429 ? 429 : http_503 ? 503 : http_500 ? 500 : 0;
  plan.cut = reset          ? StreamCut::reset
             : truncate     ? StreamCut::truncate
             : stream_error ? StreamCut::stream_error
                            : StreamCut::none;
  plan.stall = meets(options.stall_fraction);
  plan.stall_ns = s_to_ns_rounded(std::max(0.0, options.stall_s));
  plan.malformed_json = meets(options.malformed_json_fraction);
  plan.no_usage = meets(options.no_usage_fraction) || !options.send_usage;
  if (meets(options.multi_token_fraction)) {
    plan.tokens_per_chunk = std::max<std::int32_t>(2, options.multi_token_count);
  }
  plan.crlf = meets(options.crlf_fraction);
  plan.comments = meets(options.comment_fraction);
  plan.metrics_miscount = meets(options.metrics_miscount_fraction);
  // Drawn after every fault kind, so a jitter changes none of their choices.
  const double jitter_ms = random.uniform() * 2 * std::max(0.0, options.jitter_ms);
  plan.jitter_ns = std::llround(jitter_ms * 1e6 / options.time_scale);
  return plan;
}

std::string FaultPlan::names_json() const {
  std::string out = "[";
  const auto add = [&out](const char* name) {
    if (out.size() > 1) out += ',';
    out += '"';
    out += name;
    out += '"';
  };
  if (http_status == 429) add("http_429");
  if (http_status == 503) add("http_503");
  if (http_status == 500) add("http_500");
  if (cut == StreamCut::reset) add("reset");
  if (cut == StreamCut::truncate) add("truncate");
  if (cut == StreamCut::stream_error) add("stream_error");
  if (stall) add("stall");
  if (malformed_json) add("malformed_json");
  if (no_usage) add("no_usage");
  if (tokens_per_chunk > 1) add("multi_token");
  if (crlf) add("crlf");
  if (comments) add("comments");
  if (metrics_miscount) add("metrics_miscount");
  out += ']';
  return out;
}

FaultPlan FaultPlan::without_stream_faults() const {
  FaultPlan whole;
  whole.http_status = http_status;
  whole.metrics_miscount = metrics_miscount;
  whole.jitter_ns = jitter_ns;
  return whole;
}

}  // namespace bench::sim
