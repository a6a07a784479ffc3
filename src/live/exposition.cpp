#include "bench/live/exposition.hpp"

#include <cstddef>
#include <string_view>

#include <fmt/format.h>

#include "bench/util/clock.hpp"

namespace bench::live {

namespace {

// A label value with the format's three escapes (\\, \" and \n).
std::string escaped(std::string_view value) {
  std::string out;
  for (const char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

// Writes families: HELP and TYPE once each, then samples, each with the shard label first.
class Writer {
 public:
  explicit Writer(const std::string& shard)
      : shard_(shard.empty() ? "" : fmt::format("shard=\"{}\"", escaped(shard))) {}

  void family(std::string_view name, std::string_view type, std::string_view help) {
    out_ += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
  }
  // `labels`: label="value" pairs already joined with commas, or "".
  template <typename Value>
  void sample(std::string_view name, std::string_view labels, Value value) {
    std::string all = shard_;
    // Appended in two steps, not as "," + std::string(labels): GCC 12 at -O3 warns -Wrestrict
    // on a short literal plus a std::string (a false positive, GCC bug 105329).
    if (!labels.empty() && !all.empty()) all += ',';
    all += labels;
    out_ += all.empty() ? fmt::format("{} {}\n", name, value)
                        : fmt::format("{}{{{}}} {}\n", name, all, value);
  }
  void histogram(std::string_view name, std::string_view labels, const Buckets& buckets) {
    const std::string prefix = labels.empty() ? "" : std::string(labels) + ",";
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < buckets.upper_bounds.size(); ++i) {
      cumulative += buckets.counts[i];
      sample(fmt::format("{}_bucket", name),
             fmt::format("{}le=\"{}\"", prefix, buckets.upper_bounds[i]), cumulative);
    }
    sample(fmt::format("{}_bucket", name), fmt::format("{}le=\"+Inf\"", prefix), buckets.count);
    sample(fmt::format("{}_sum", name), labels, buckets.sum);
    sample(fmt::format("{}_count", name), labels, buckets.count);
  }
  std::string take() { return std::move(out_); }

 private:
  std::string shard_;
  std::string out_;
};

void requests(Writer& out, const Snapshot& snapshot) {
  out.family("bench_requests_total", "counter",
             "Requests that ended, by phase (warmup, measured) and outcome (completed, failed, "
             "cancelled)");
  for (const auto& [phase, counts] :
       {std::pair<const char*, const RequestCounts&>{"measured", snapshot.measured},
        {"warmup", snapshot.warmup}}) {
    out.sample("bench_requests_total", fmt::format("phase=\"{}\",outcome=\"completed\"", phase),
               counts.completed);
    out.sample("bench_requests_total", fmt::format("phase=\"{}\",outcome=\"failed\"", phase),
               counts.failed);
    out.sample("bench_requests_total", fmt::format("phase=\"{}\",outcome=\"cancelled\"", phase),
               counts.cancelled);
  }
  out.family("bench_requests_in_flight", "gauge", "Requests sent and not yet ended");
  out.sample("bench_requests_in_flight", "", snapshot.in_flight);
}

void tokens(Writer& out, const Snapshot& snapshot) {
  const TokenCounts& tokens = snapshot.tokens;
  out.family("bench_tokens_total", "counter",
             "Tokens of completed measured requests, by OpenTelemetry's gen_ai.token.type "
             "(input: the prompt; output: the completion), as the report's totals count them");
  out.sample("bench_tokens_total", "gen_ai_token_type=\"input\"", tokens.input);
  out.sample("bench_tokens_total", "gen_ai_token_type=\"output\"", tokens.output);
  out.family("bench_input_tokens_total", "counter",
             "Input tokens by what the server did with them: computed (prefilled), cached (from "
             "its prefix cache), unknown (the server did not say); they add up to the input");
  out.sample("bench_input_tokens_total", "split=\"computed\"", tokens.input_computed);
  out.sample("bench_input_tokens_total", "split=\"cached\"", tokens.input_cached);
  out.sample("bench_input_tokens_total", "split=\"unknown\"", tokens.input_split_unknown);
  out.family("bench_output_tokens_total", "counter",
             "Output tokens spent on reasoning and on tool calls (each a part of the output)");
  out.sample("bench_output_tokens_total", "part=\"reasoning\"", tokens.output_reasoning);
  out.sample("bench_output_tokens_total", "part=\"tool_call\"", tokens.output_tool_call);
  out.family("bench_token_counts_unknown_total", "counter",
             "Completed measured requests whose token count is unknown, in no token sum");
  out.sample("bench_token_counts_unknown_total", "gen_ai_token_type=\"input\"",
             tokens.requests_input_unknown);
  out.sample("bench_token_counts_unknown_total", "gen_ai_token_type=\"output\"",
             tokens.requests_output_unknown);
  out.family("gen_ai_client_token_usage", "histogram",
             "Tokens per completed measured request, OpenTelemetry's gen_ai.client.token.usage");
  out.histogram("gen_ai_client_token_usage", "gen_ai_token_type=\"input\"",
                snapshot.tokens_per_request[0]);
  out.histogram("gen_ai_client_token_usage", "gen_ai_token_type=\"output\"",
                snapshot.tokens_per_request[1]);
}

void latencies(Writer& out, const Snapshot& snapshot) {
  static constexpr std::array<const char*, 4> kHelp = {
      "Time to first token of completed measured requests, seconds",
      "Inter-token latency (per-token gaps) of completed measured requests, seconds",
      "Time per output token after the first of completed measured requests, seconds",
      "End-to-end latency of completed measured requests, seconds"};
  for (const Latency latency : kLatencies) {
    const auto k = static_cast<std::size_t>(latency);
    const std::string name = fmt::format("bench_{}_seconds", latency_name(latency));
    out.family(name, "histogram", kHelp[k]);
    out.histogram(name, "", snapshot.latency_seconds[k]);
  }
  const std::string window = fmt::format("window=\"{}s\"", snapshot.window_s);
  out.family("bench_window_latency_seconds", "gauge",
             "Exact percentiles (numpy's linear definition, as bench's report) of the latencies "
             "of the current point's requests that ended in the sliding window, seconds");
  for (const Latency latency : kLatencies) {
    const WindowFigures& figures = snapshot.window[static_cast<std::size_t>(latency)];
    for (std::size_t k = 0; k < kWindowPercentiles.size(); ++k) {
      if (!figures.percentiles[k]) continue;  // unknown: no sample rather than 0
      out.sample("bench_window_latency_seconds",
                 fmt::format("latency=\"{}\",percentile=\"{}\",{}", latency_name(latency),
                             kWindowPercentiles[k], window),
                 ms_to_s(*figures.percentiles[k]));
    }
  }
  out.family("bench_window_values", "gauge",
             "Values the sliding window's percentiles are taken over, by latency");
  for (const Latency latency : kLatencies) {
    out.sample("bench_window_values",
               fmt::format("latency=\"{}\",{}", latency_name(latency), window),
               snapshot.window[static_cast<std::size_t>(latency)].values);
  }
}

void run(Writer& out, const Snapshot& snapshot) {
  out.family("bench_point_index", "gauge",
             "Points (sweep points, search probes, repeats) begun, less one: the current one");
  out.sample("bench_point_index", "", snapshot.point_index);
  if (!snapshot.point.empty()) {
    out.family("bench_point_info", "gauge", "The point running now, by its label; always 1");
    out.sample("bench_point_info", fmt::format("point=\"{}\"", escaped(snapshot.point)), 1);
  }
  out.family("bench_run_elapsed_seconds", "gauge", "Seconds since bench's live feed started");
  out.sample("bench_run_elapsed_seconds", "", snapshot.elapsed_s);
  out.family("bench_live_publisher_cpu_seconds_total", "counter",
             "CPU the live feed's publisher thread has used: what watching the run costs");
  out.sample("bench_live_publisher_cpu_seconds_total", "", snapshot.publisher_cpu_s);
  out.family("bench_run_finished", "gauge", "1 once the run has ended: the figures are final");
  out.sample("bench_run_finished", "", snapshot.final ? 1 : 0);
}

}  // namespace

std::string prometheus_text(const Snapshot& snapshot) {
  Writer out(snapshot.shard);
  requests(out, snapshot);
  tokens(out, snapshot);
  latencies(out, snapshot);
  run(out, snapshot);
  return out.take();
}

}  // namespace bench::live
