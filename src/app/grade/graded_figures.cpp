#include "graded_figures.hpp"

#include <vector>

#include <fmt/format.h>

#include "bench/metrics/percentile.hpp"
#include "bench/results/format.hpp"
#include "bench/util/clock.hpp"

namespace bench::app {

namespace {

constexpr std::array<std::string_view, 4> kDistributions = {"ttft", "icl", "tpot", "e2e_latency"};
constexpr std::array<std::string_view, 3> kStats = {"mean", "median", "p99"};

std::vector<std::string> make_keys() {
  std::vector<std::string> keys;
  for (const std::string_view distribution : kDistributions) {
    for (const std::string_view stat : kStats) {
      keys.push_back(fmt::format("{}_{}_ms", stat, distribution));
    }
  }
  return keys;
}

const std::vector<std::string>& keys() {
  static const std::vector<std::string> all = make_keys();
  return all;
}

bool complete_stream(const sim::TraceRecord& r) {
  return r.stream && r.http_status == 200 && r.outcome == "ok" && !r.chunk_ns.empty();
}

void add_stats(std::string_view distribution, std::vector<double>& values, Figures& figures) {
  if (values.empty()) return;
  const metrics::Distribution d = metrics::summarize(values);
  figures[fmt::format("mean_{}_ms", distribution)] = d.mean;
  figures[fmt::format("median_{}_ms", distribution)] = d.median;
  figures[fmt::format("p99_{}_ms", distribution)] = d.p99;
}

}  // namespace

std::span<const std::string> graded_keys() { return keys(); }

Figures figures_of_results(const nlohmann::json& results) {
  Figures figures;
  for (const std::string& key : keys()) figures[key] = results::number_at(results, key);
  return figures;
}

TruthFigures truth_figures(std::span<const sim::TraceRecord> records, std::int64_t count) {
  std::vector<const sim::TraceRecord*> complete;
  for (const sim::TraceRecord& r : records) {
    if (complete_stream(r)) complete.push_back(&r);
  }
  TruthFigures truth;
  truth.served = static_cast<std::int64_t>(complete.size());
  const std::size_t first =
      complete.size() > static_cast<std::size_t>(std::max<std::int64_t>(count, 0))
          ? complete.size() - static_cast<std::size_t>(count)
          : 0;
  std::vector<double> ttft, icl, tpot, e2e;
  for (std::size_t i = first; i < complete.size(); ++i) {
    const sim::TraceRecord& r = *complete[i];
    const double first_ms = ns_to_ms(r.chunk_ns.front() - r.arrival_ns);
    const double e2e_ms = ns_to_ms(r.end_ns - r.arrival_ns);
    ttft.push_back(first_ms);
    e2e.push_back(e2e_ms);
    for (std::size_t c = 1; c < r.chunk_ns.size(); ++c) {
      icl.push_back(ns_to_ms(r.chunk_ns[c] - r.chunk_ns[c - 1]));
    }
    if (r.completion_tokens > 1) {
      tpot.push_back((e2e_ms - first_ms) / static_cast<double>(r.completion_tokens - 1));
    }
    ++truth.compared;
  }
  for (const std::string& key : keys()) truth.figures[key] = std::nullopt;
  add_stats("ttft", ttft, truth.figures);
  add_stats("icl", icl, truth.figures);
  add_stats("tpot", tpot, truth.figures);
  add_stats("e2e_latency", e2e, truth.figures);
  return truth;
}

}  // namespace bench::app
