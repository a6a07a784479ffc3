#include "bench/app/server/target.hpp"

#include <optional>

#include <fmt/format.h>

#include "bench/app/point/early_stop.hpp"
#include "bench/app/server/startup_fetch.hpp"
#include "bench/app/server/tokenizer_files.hpp"
#include "bench/engine/connect_backoff.hpp"
#include "bench/engine/fetch.hpp"
#include "bench/metrics/request_record.hpp"
#include "bench/protocol/stream_reader.hpp"

namespace bench::app {

namespace {

// No connection could be made (engine::is_connection_failure), or none that TLS would accept.
bool is_unreachable(metrics::ErrorClass error) {
  return engine::is_connection_failure(error) || error == metrics::ErrorClass::tls;
}

// "host:port" of a URL shown to the user (no userinfo, no path).
std::string authority_of(const std::string& url) {
  const std::size_t scheme = url.find("://");
  const std::size_t start = scheme == std::string::npos ? 0 : scheme + 3;
  std::string authority = url.substr(start, url.find('/', start) - start);
  if (const std::size_t at = authority.rfind('@'); at != std::string::npos) {
    authority.erase(0, at + 1);
  }
  return authority;
}

}  // namespace

std::string failed_exchange_text(const std::string& what, const std::string& shown_url,
                                 const engine::TransferEnd& end, const std::string& message) {
  // A connection was made and no status line came back (curl: "Unsupported protocol" for
  // bytes that are not HTTP/1.x, "Empty reply from server" for a close): the server was
  // reached, it did not speak HTTP. A timeout may be a slow HTTP server: said as it was.
  const bool reached = end.new_connections > 0 && end.response_start_ns < 0 &&
                       !is_unreachable(end.error) &&
                       end.error != metrics::ErrorClass::request_timeout;
  if (!reached) return fmt::format("cannot reach {}: {}", shown_url, message);
  return fmt::format("reached {} but it did not answer HTTP ({} {}: {})", authority_of(shown_url),
                     what, shown_url, message);
}

Target open_target(const std::vector<std::string>& base_urls, const sim::SimOptions& sim) {
  Target target;
  target.base_urls = base_urls;
  target.base_urls = base_urls;
  if (!base_urls.empty()) {
    target.shown_base_url = util::url_with_secrets_hidden(base_urls.front());
    return target;
  }
  sim::SimOptions options = sim;
  if (!options.tokenizer_path.empty()) options.tokenizer = open_tokenizer_file(sim.tokenizer_path);
  try {
    target.embedded = std::make_unique<sim::SimServer>(options);
  } catch (const std::exception& error) {
    throw RunError(std::string("cannot start the embedded server: ") + error.what());
  }
  target.base_urls = {target.embedded->base_url()};
  target.shown_base_url = target.base_urls.front();
  return target;
}

std::string discover_model(const std::string& base_url, const std::vector<std::string>& headers,
                           const engine::EngineOptions& engine, const util::Redactor& redactor) {
  const std::string url = models_url(base_url);
  const std::string shown_url = util::url_with_secrets_hidden(url);
  const engine::FetchResult models = startup_fetch(url, headers, "", engine);
  if (models.end.error != metrics::ErrorClass::none) {
    throw RunError(
        failed_exchange_text("GET", shown_url, models.end, redactor.redact(models.end.message)));
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
    throw RunError(
        fmt::format("GET {} listed a model id holding a credential; pass --model", shown_url));
  }
  return *model;
}

namespace {

// One probe request's record: RunError when the server cannot be reached or refuses for good.
metrics::RequestRecord probe(const std::string& url, const std::vector<std::string>& headers,
                             const std::string& body, const protocol::RequestOptions& request,
                             const engine::EngineOptions& engine, const util::Redactor& redactor) {
  const std::string shown_url = util::url_with_secrets_hidden(url);
  const engine::FetchResult probe = startup_fetch(url, headers, body, engine);
  if (is_unreachable(probe.end.error)) {
    throw RunError(
        fmt::format("cannot reach {}: {}", shown_url, redactor.redact(probe.end.message)));
  }
  if (probe.http_status != 200) {
    // Refused for good: every request of the run would be, so say why now.
    const std::optional<std::string> refusal = describe_refusal(
        probe.http_status, redactor.redact(protocol::error_message_from_body(probe.body)));
    if (refusal) throw RunError(fmt::format("POST {} answered {}", shown_url, *refusal));
  }
  metrics::RequestRecord record;
  protocol::StreamReader reader;
  reader.read_as(request.endpoint);
  reader.begin(&record,
               request.stream ? protocol::Delivery::stream : protocol::Delivery::whole_body);
  reader.on_headers(probe.http_status, probe.content_type);
  reader.on_body(probe.body, 0);
  reader.finish(protocol::TransportEnd{probe.end.error, probe.end.message, 0});
  return record;
}

}  // namespace

bool probe_per_chunk_usage(const std::string& url, const std::vector<std::string>& headers,
                           protocol::RequestOptions request, const engine::EngineOptions& engine,
                           const util::Redactor& redactor) {
  request.continuous_usage_stats = true;
  request.max_tokens = 2;
  return probe(url, headers, protocol::build_request_body(request, "Hello"), request, engine,
               redactor)
      .ok();
}

std::optional<std::int64_t> probe_prompt_tokens(const std::string& url,
                                                const std::vector<std::string>& headers,
                                                protocol::RequestOptions request,
                                                const nlohmann::json& messages,
                                                const engine::EngineOptions& engine,
                                                const util::Redactor& redactor) {
  request.max_tokens = 1;
  const std::string body = protocol::takes_messages(request.endpoint)
                               ? protocol::build_chat_request_body(request, messages)
                               : protocol::build_request_body(request, "Hello");
  const metrics::RequestRecord record = probe(url, headers, body, request, engine, redactor);
  if (!record.ok() || record.prompt_token_source != metrics::TokenSource::usage) {
    return std::nullopt;
  }
  return record.prompt_tokens;
}

}  // namespace bench::app
