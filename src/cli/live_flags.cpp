#include "bench/cli/live_flags.hpp"

#include <charconv>
#include <string_view>

#include <fmt/format.h>

#include "bench/cli/output_paths.hpp"
#include "bench/cli/values.hpp"

namespace bench::cli {

namespace {

int port_of(std::string_view text, const std::string& given) {
  int port = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), port);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || port < 0 ||
      port > 65535) {
    throw UsageError(
        fmt::format("--metrics-listen '{}': the port must be a whole number 0..65535", given));
  }
  return port;
}

}  // namespace

ListenAddress parse_listen_address(const std::string& text) {
  ListenAddress address;
  const std::string_view view(text);
  if (!view.empty() && view.front() == '[') {  // [IPv6]:PORT
    const std::size_t close = view.find("]:");
    if (close == std::string_view::npos || close == 1) {
      throw UsageError(
          fmt::format("--metrics-listen '{}': an IPv6 address is [ADDRESS]:PORT", text));
    }
    address.host = std::string(view.substr(1, close - 1));
    address.port = port_of(view.substr(close + 2), text);
    return address;
  }
  const std::size_t colon = view.rfind(':');
  if (colon == std::string_view::npos) {
    address.port = port_of(view, text);
    return address;
  }
  if (colon == 0 || view.find(':') != colon) {
    throw UsageError(fmt::format(
        "--metrics-listen '{}': expected [HOST:]PORT (an IPv6 address in brackets)", text));
  }
  address.host = std::string(view.substr(0, colon));
  address.port = port_of(view.substr(colon + 1), text);
  return address;
}

void setup_live_flags(CLI::App& app, RunOptions& run) {
  app.add_option_function<std::string>(
      "--metrics-listen",
      [&run](const std::string& text) { run.metrics_listen = parse_listen_address(text); },
      "Serve bench's own figures while the run goes on: GET /metrics (Prometheus text: requests "
      "by outcome, input and output tokens, in flight, latency histograms, exact percentiles "
      "over --metrics-window) and GET /api/live (the same as JSON), at [HOST:]PORT (HOST "
      "127.0.0.1 unless given; PORT 0: any free port, said on stderr), until bench exits");
  app.add_option("--metrics-window", run.metrics_window_s,
                 "The window of the live percentile gauges, seconds of the current point")
      ->check(CLI::Range(1.0, 86400.0))
      ->capture_default_str();
  app.add_option("--metrics-linger", run.metrics_linger_s,
                 "With --metrics-listen: keep serving the final figures this long after the run "
                 "ends, seconds (a scraper's last scrape); Ctrl-C ends it")
      ->check(CLI::Range(0.0, 86400.0))
      ->capture_default_str();
  app.add_option("--live-jsonl", run.live_jsonl,
                 "Append one JSON line of bench's live figures to this file every 250 ms "
                 "(docs/live-metrics.md)")
      ->option_text("FILE");
  app.add_flag_callback(
      "--no-traceparent", [&run] { run.traceparent = false; },
      "Send no W3C traceparent header (by default each request carries one of its own, its "
      "trace id in --save-requests' log, so the server's spans of it can be found)");
  app.add_option("--otlp-endpoint", run.otlp_endpoint,
                 "Post one OpenTelemetry span per request (its phases: queued, sent, connected, "
                 "headers, first token, last token; the trace of its traceparent) as OTLP/HTTP "
                 "JSON to this collector URL, e.g. http://localhost:4318/v1/traces");
}

void finish_live_flags(const CLI::App& app, RunOptions& run) {
  if (!run.live_jsonl.empty()) check_output_path("--live-jsonl", run.live_jsonl);
  if (!run.otlp_endpoint.empty() && !run.traceparent) {
    throw UsageError(
        "--otlp-endpoint: needs the traceparent header (its ids are the spans'); drop "
        "--no-traceparent");
  }
  if (app.count("--metrics-linger") > 0 && !run.metrics_listen) {
    throw UsageError("--metrics-linger: needs --metrics-listen (it keeps the listener open)");
  }
}

}  // namespace bench::cli
