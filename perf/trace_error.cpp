// How far bench's own measurements are from the truth: joins bench's --save-requests JSONL with
// the simulator's --trace truth log by response id, and prints the absolute error of TTFT
// (bench: request start -> first text chunk read; server: request read -> first chunk written)
// and of every inter-chunk gap (read gaps against write gaps), as p50 / p99 / max in ms.
//
//   trace_error REQUESTS.jsonl TRACE.jsonl
//
// Used by perf/run for its fidelity row. Warm-up requests are left out, as in every figure.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/metrics/percentile.hpp"

namespace {

using nlohmann::json;

std::vector<json> read_lines(const char* path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(std::string("cannot read ") + path);
  std::vector<json> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(json::parse(line));
  }
  return lines;
}

void print(const char* name, std::vector<double>& errors_ms) {
  const bench::metrics::Distribution d = bench::metrics::summarize(errors_ms);
  fmt::print("{} {:.3f} {:.3f} {:.3f} {}\n", name, d.median, d.p99, d.max, d.count);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: trace_error REQUESTS.jsonl TRACE.jsonl\n");
    return 2;
  }
  try {
    std::unordered_map<std::string, json> truth;
    for (json& record : read_lines(argv[2])) truth.emplace(record["id"].get<std::string>(), record);
    std::vector<double> ttft_error_ms, gap_error_ms;
    std::size_t unmatched = 0;
    for (const json& request : read_lines(argv[1])) {
      if (request["warmup"].get<bool>() || request["status"] != "ok") continue;
      const auto found = truth.find(request.value("response_id", ""));
      if (found == truth.end()) {
        ++unmatched;
        continue;
      }
      const json& server = found->second;
      const std::vector<double> read_ms = request["chunk_arrival_ms"];
      const std::vector<std::int64_t> sent_ns = server["chunk_ns"];
      if (read_ms.size() != sent_ns.size() || read_ms.empty()) {
        ++unmatched;
        continue;
      }
      const double server_ttft_ms =
          static_cast<double>(sent_ns.front() - server["arrival_ns"].get<std::int64_t>()) / 1e6;
      ttft_error_ms.push_back(std::abs(request["ttft_ms"].get<double>() - server_ttft_ms));
      for (std::size_t i = 1; i < read_ms.size(); ++i) {
        const double server_gap_ms = static_cast<double>(sent_ns[i] - sent_ns[i - 1]) / 1e6;
        gap_error_ms.push_back(std::abs((read_ms[i] - read_ms[i - 1]) - server_gap_ms));
      }
    }
    // One line each: name, p50, p99, max (ms), count; then what could not be matched.
    print("ttft", ttft_error_ms);
    print("itl", gap_error_ms);
    fmt::print("unmatched {}\n", unmatched);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "trace_error: %s\n", error.what());
    return 1;
  }
}
