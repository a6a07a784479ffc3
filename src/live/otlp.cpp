#include "bench/live/otlp.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "bench/metrics/error_class.hpp"

namespace bench::live {

namespace {

using json = nlohmann::ordered_json;

// Spans waiting past this are dropped (and counted) rather than held: a collector that stops
// answering must not grow bench's memory.
constexpr std::size_t kMostPending = 100'000;
constexpr auto kBatchInterval = std::chrono::milliseconds(500);
constexpr std::size_t kBatchSpans = 2'000;
constexpr int kSpanKindClient = 3;              // trace.proto SPAN_KIND_CLIENT
constexpr int kStatusOk = 1, kStatusError = 2;  // STATUS_CODE_OK, STATUS_CODE_ERROR

json string_attribute(const char* key, const std::string& value) {
  return {{"key", key}, {"value", {{"stringValue", value}}}};
}
json int_attribute(const char* key, std::int64_t value) {
  // int64 in OTLP JSON: a decimal string (protobuf's JSON mapping).
  return {{"key", key}, {"value", {{"intValue", std::to_string(value)}}}};
}

json span_json(const Span& span) {
  json attributes = json::array();
  attributes.push_back(int_attribute("bench.request.index", static_cast<std::int64_t>(span.index)));
  attributes.push_back({{"key", "bench.warmup"}, {"value", {{"boolValue", span.warmup}}}});
  if (span.http_status > 0)
    attributes.push_back(int_attribute("http.response.status_code", span.http_status));
  if (!span.response_id.empty())
    attributes.push_back(string_attribute("gen_ai.response.id", span.response_id));
  // OpenTelemetry GenAI semantic conventions' usage attributes; unknown counts are left out.
  if (span.input_tokens >= 0)
    attributes.push_back(int_attribute("gen_ai.usage.input_tokens", span.input_tokens));
  if (span.output_tokens >= 0)
    attributes.push_back(int_attribute("gen_ai.usage.output_tokens", span.output_tokens));
  if (!span.ok) attributes.push_back(string_attribute("error.type", span.error));
  json events = json::array();
  for (const auto& [name, unix_ns] : span.events) {
    events.push_back({{"timeUnixNano", std::to_string(unix_ns)}, {"name", name}});
  }
  json status = {{"code", span.ok ? kStatusOk : kStatusError}};
  if (!span.ok) status["message"] = span.error;
  return {{"traceId", span.trace_id},
          {"spanId", span.span_id},
          {"name", "bench request"},
          {"kind", kSpanKindClient},
          {"startTimeUnixNano", std::to_string(span.start_unix_ns)},
          {"endTimeUnixNano", std::to_string(span.end_unix_ns)},
          {"attributes", std::move(attributes)},
          {"events", std::move(events)},
          {"status", std::move(status)}};
}

}  // namespace

Span span_of(const metrics::RequestRecord& record, std::int64_t epoch_unix_ns) {
  Span span;
  span.trace_id = record.trace_id;
  span.span_id = record.span_id;
  const auto at = [&](std::int64_t ns) { return epoch_unix_ns + ns; };
  // The span covers the wait in bench's own queue too: the user's request began when it was due.
  span.start_unix_ns = at(std::min(record.intended_start_ns, record.start_ns));
  span.end_unix_ns = at(record.end_ns);
  span.events.emplace_back("queued", at(record.intended_start_ns));
  span.events.emplace_back("sent", at(record.start_ns));
  if (record.connect_ns >= 0)
    span.events.emplace_back("connected", at(record.start_ns + record.connect_ns));
  if (record.response_headers_ns >= 0) {
    span.events.emplace_back("headers", at(record.start_ns + record.response_headers_ns));
  }
  if (record.first_token_ns >= 0)
    span.events.emplace_back("first_token", at(record.first_token_ns));
  if (!record.text_chunk_ns.empty())
    span.events.emplace_back("last_token", at(record.text_chunk_ns.back()));
  span.ok = record.ok();
  if (!span.ok) span.error = std::string(metrics::error_class_name(record.error));
  span.http_status = record.http_status;
  span.response_id = record.response_id;
  span.input_tokens = record.prompt_tokens;
  span.output_tokens = record.completion_tokens;
  span.index = record.index;
  span.warmup = record.warmup;
  return span;
}

std::string otlp_json(const std::vector<Span>& spans) {
  json list = json::array();
  for (const Span& span : spans) list.push_back(span_json(span));
  const json scope = {{"name", "bench"}, {"version", BENCH_VERSION}};
  const json resource = {{"attributes", json::array({string_attribute("service.name", "bench")})}};
  const json request = {
      {"resourceSpans",
       json::array(
           {{{"resource", resource},
             {"scopeSpans", json::array({{{"scope", scope}, {"spans", std::move(list)}}})}}})}};
  return request.dump();
}

std::variant<std::unique_ptr<OtlpExporter>, std::string> OtlpExporter::open(
    const std::string& url) {
  const std::size_t scheme_end = url.find("://");
  const bool known_scheme = url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0;
  if (!known_scheme || scheme_end == std::string::npos) {
    return "--otlp-endpoint " + url +
           ": expected an http:// or https:// URL (a collector's "
           "traces endpoint, e.g. http://localhost:4318/v1/traces)";
  }
  const std::size_t path_at = url.find('/', scheme_end + 3);
  const std::string origin = path_at == std::string::npos ? url : url.substr(0, path_at);
  const std::string path = path_at == std::string::npos ? "/v1/traces" : url.substr(path_at);
  auto client = std::make_unique<httplib::Client>(origin);
  if (!client->is_valid()) return "--otlp-endpoint " + url + ": not a URL bench can post to";
  client->set_connection_timeout(5);
  client->set_read_timeout(10);
  client->set_write_timeout(10);
  client->set_keep_alive(true);
  // The constructor is private (open() is the way in), so make_unique cannot reach it.
  return std::unique_ptr<OtlpExporter>(new OtlpExporter(std::move(client), url, path));
}

OtlpExporter::OtlpExporter(std::unique_ptr<httplib::Client> client, std::string url,
                           std::string path)
    : client_(std::move(client)), url_(std::move(url)), path_(std::move(path)) {
  thread_ = std::thread([this] { run(); });
}

OtlpExporter::~OtlpExporter() { finish(); }

void OtlpExporter::add(Span span) {
  const std::lock_guard lock(mutex_);
  if (pending_.size() >= kMostPending) {
    ++dropped_;
    return;
  }
  pending_.push_back(std::move(span));
}

void OtlpExporter::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, kBatchInterval, [this] { return stopping_; });
    while (!pending_.empty()) {
      const std::size_t take = std::min(pending_.size(), kBatchSpans);
      std::vector<Span> batch(std::make_move_iterator(pending_.begin()),
                              std::make_move_iterator(pending_.begin() + static_cast<long>(take)));
      pending_.erase(pending_.begin(), pending_.begin() + static_cast<long>(take));
      lock.unlock();
      post(std::move(batch));
      lock.lock();
    }
  }
}

void OtlpExporter::post(std::vector<Span> batch) {
  const httplib::Result result = client_->Post(path_, otlp_json(batch), "application/json");
  const bool accepted = result && result->status >= 200 && result->status < 300;
  const std::lock_guard lock(mutex_);
  if (accepted) {
    posted_ += static_cast<std::int64_t>(batch.size());
    return;
  }
  refused_ += static_cast<std::int64_t>(batch.size());
  last_error_ =
      result ? fmt::format("HTTP {}", result->status) : httplib::to_string(result.error());
}

std::string OtlpExporter::finish() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();  // it posts what is pending before it stops
  const std::lock_guard lock(mutex_);
  std::string line = fmt::format("bench: OTLP: {} spans posted to {}", posted_, url_);
  if (refused_ > 0) line += fmt::format(", {} not accepted ({})", refused_, last_error_);
  if (dropped_ > 0) line += fmt::format(", {} dropped (the collector fell behind)", dropped_);
  return line + "\n";
}

}  // namespace bench::live
