#include "bench/app/target.hpp"

#include <optional>

#include <fmt/format.h>

#include "bench/app/early_stop.hpp"
#include "bench/engine/fetch.hpp"
#include "bench/metrics/request_record.hpp"
#include "bench/protocol/stream_reader.hpp"

namespace bench::app {

namespace {

bool is_unreachable(metrics::ErrorClass error) {
  using metrics::ErrorClass;
  return error == ErrorClass::connect_refused || error == ErrorClass::dns ||
         error == ErrorClass::tls || error == ErrorClass::connect_timeout;
}

}  // namespace

Target open_target(const std::string& base_url, const sim::SimOptions& sim) {
  Target target;
  target.base_url = base_url;
  target.shown_base_url = util::url_without_password(base_url);
  if (!base_url.empty()) return target;
  try {
    target.embedded = std::make_unique<sim::SimServer>(sim);
  } catch (const std::exception& error) {
    throw RunError(std::string("cannot start the embedded server: ") + error.what());
  }
  target.base_url = target.embedded->base_url();
  target.shown_base_url = target.base_url;
  return target;
}

std::string discover_model(const std::string& base_url, const std::vector<std::string>& headers,
                           const engine::EngineOptions& engine, const util::Redactor& redactor) {
  const std::string url = base_url + "/v1/models";
  const std::string shown_url = util::url_without_password(url);
  const engine::FetchResult models = engine::fetch(url, headers, "", engine);
  if (models.end.error != metrics::ErrorClass::none) {
    throw RunError(
        fmt::format("cannot reach {}: {}", shown_url, redactor.redact(models.end.message)));
  }
  if (models.http_status != 200) {
    const std::string message = redactor.redact(protocol::error_message_from_body(models.body));
    // A refused key is the problem to fix; --model would only move the refusal to the run.
    if (models.http_status == 401 || models.http_status == 403) {
      throw RunError(fmt::format("GET {} answered {}", shown_url,
                                 *describe_refusal(models.http_status, message)));
    }
    throw RunError(fmt::format("GET {} answered HTTP {}: {}; pass --model", shown_url,
                               models.http_status, message));
  }
  std::optional<std::string> model = protocol::first_model_id(models.body);
  if (!model) throw RunError(fmt::format("GET {} listed no model; pass --model", shown_url));
  // The id is shown and stored as it is; one that holds a credential is not used.
  if (redactor.redact(*model) != *model) {
    throw RunError(fmt::format("GET {} listed a model id holding a credential; pass --model",
                               shown_url));
  }
  return *model;
}

bool probe_per_chunk_usage(const std::string& url, const std::vector<std::string>& headers,
                           protocol::RequestOptions request, const engine::EngineOptions& engine,
                           const util::Redactor& redactor) {
  request.continuous_usage_stats = true;
  request.max_tokens = 2;
  const std::string shown_url = util::url_without_password(url);
  const engine::FetchResult probe =
      engine::fetch(url, headers, protocol::build_request_body(request, "Hello"), engine);
  if (is_unreachable(probe.end.error)) {
    throw RunError(
        fmt::format("cannot reach {}: {}", shown_url, redactor.redact(probe.end.message)));
  }
  if (probe.http_status != 200) {
    // Refused for good: every request of the run would be, so say why now.
    const std::optional<std::string> refusal = describe_refusal(
        probe.http_status, redactor.redact(protocol::error_message_from_body(probe.body)));
    if (refusal) throw RunError(fmt::format("POST {} answered {}", shown_url, *refusal));
    return false;
  }
  metrics::RequestRecord record;
  protocol::StreamReader reader;
  reader.begin(&record);
  reader.on_headers(probe.http_status, probe.content_type);
  reader.on_body(probe.body, 0);
  reader.finish(protocol::TransportEnd{probe.end.error, probe.end.message, 0});
  return record.ok();
}

}  // namespace bench::app
