#include "bench/metrics/client_error.hpp"

#include <cmath>
#include <unordered_map>

#include "bench/metrics/percentile.hpp"
#include "bench/util/clock.hpp"

namespace bench::metrics {

namespace {

// One figure's errors (magnitudes) and the client's values of it, request by request.
struct Pairs {
  std::vector<double> errors, client;
  void add(double client_ms, double server_ms) {
    errors.push_back(std::abs(client_ms - server_ms));
    client.push_back(client_ms);
  }
};

std::optional<ErrorStats> stats_of(Pairs& pairs) {
  if (pairs.errors.empty()) return std::nullopt;
  const Distribution d = summarize(pairs.errors);
  return ErrorStats{d.count, d.median, d.p99, d.max, summarize(pairs.client).p99};
}

struct Errors {
  Pairs ttft, itl, tpot, e2e;
};

// One joined request's differences, client minus server, as magnitudes in milliseconds.
void add_request(const StreamTimes& c, const StreamTimes& s, Errors& errors, ClientError& out) {
  const double ttft_c = ns_to_ms(c.chunk_ns.front() - c.start_ns);
  const double ttft_s = ns_to_ms(s.chunk_ns.front() - s.start_ns);
  const double e2e_c = ns_to_ms(c.end_ns - c.start_ns);
  const double e2e_s = ns_to_ms(s.end_ns - s.start_ns);
  errors.ttft.add(ttft_c, ttft_s);
  errors.e2e.add(e2e_c, e2e_s);
  if (s.tokens > 1) {
    const double steps = static_cast<double>(s.tokens - 1);
    errors.tpot.add((e2e_c - ttft_c) / steps, (e2e_s - ttft_s) / steps);
  }
  // A coalesced or split event makes positions disagree: pairing them would measure the
  // mismatch, not the client, so such a request gives no ITL.
  if (c.chunk_ns.size() != s.chunk_ns.size()) {
    ++out.chunk_mismatch;
    return;
  }
  for (std::size_t i = 1; i < c.chunk_ns.size(); ++i) {
    const std::int64_t gap_c = c.chunk_ns[i] - c.chunk_ns[i - 1];
    const std::int64_t gap_s = s.chunk_ns[i] - s.chunk_ns[i - 1];
    errors.itl.add(ns_to_ms(gap_c), ns_to_ms(gap_s));
  }
}

}  // namespace

ClientError client_error(std::span<const StreamTimes> client, std::span<const StreamTimes> truth) {
  std::unordered_map<std::string, const StreamTimes*> by_id;
  for (const StreamTimes& s : truth) {
    if (!s.id.empty() && !s.chunk_ns.empty()) by_id.emplace(s.id, &s);
  }
  ClientError out;
  Errors errors;
  for (const StreamTimes& c : client) {
    if (c.chunk_ns.empty()) continue;
    const auto found = by_id.find(c.id);
    if (found == by_id.end()) {
      ++out.client_only;
      continue;
    }
    ++out.joined;
    add_request(c, *found->second, errors, out);
  }
  out.ttft = stats_of(errors.ttft);
  out.itl = stats_of(errors.itl);
  out.tpot = stats_of(errors.tpot);
  out.e2e = stats_of(errors.e2e);
  return out;
}

bool bound_exceeds_share(double bound_ms, double figure_ms, double share) {
  if (figure_ms <= 0) return bound_ms > 0;
  return bound_ms > share * figure_ms;
}

}  // namespace bench::metrics
