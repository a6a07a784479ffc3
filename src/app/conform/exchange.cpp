#include "exchange.hpp"

#include <fmt/format.h>

#include "bench/util/url.hpp"

namespace bench::app::conform {

protocol::RequestOptions request_options(const ConformServer& server, protocol::Endpoint endpoint,
                                         std::int64_t max_tokens) {
  protocol::RequestOptions options;
  options.endpoint = endpoint;
  options.model = server.model;
  options.max_tokens = max_tokens;
  options.temperature = 0.0;
  return options;
}

std::string streamed_body(const protocol::RequestOptions& options, std::string_view prompt) {
  return protocol::build_request_body(options, prompt);
}

Answer send(const ConformServer& server, protocol::Endpoint endpoint, const std::string& body,
            std::size_t max_body_bytes) {
  Answer answer;
  const std::string url = util::url_join(server.base_url, protocol::endpoint_path(endpoint));
  answer.fetched = engine::fetch(url, *server.headers, body, server.engine, max_body_bytes);
  protocol::StreamReader reader;
  reader.read_as(endpoint);
  reader.keep_answer_text(true);
  reader.keep_reasoning_text(true);
  reader.begin(&answer.record);
  reader.on_headers(answer.fetched.http_status, answer.fetched.content_type);
  reader.on_body(answer.fetched.body, 0);
  reader.finish(protocol::TransportEnd{answer.fetched.end.error, answer.fetched.end.message, 0});
  answer.tool_calls = reader.tool_calls();
  answer.text = reader.answer_text();
  answer.reasoning = reader.kept_reasoning_text();
  return answer;
}

engine::FetchResult fetch_route(const ConformServer& server, std::string_view path,
                                const std::string& body) {
  return engine::fetch(util::url_join(server.base_url, path), *server.headers, body, server.engine);
}

std::string refusal_message(const ConformServer& server, const Answer& answer) {
  const nlohmann::json parsed = nlohmann::json::parse(answer.fetched.body, nullptr, false);
  if (!parsed.is_object()) return "";
  return server.redactor->redact(protocol::error_message_from_body(answer.fetched.body));
}

std::string failure_text(const ConformServer& server, const Answer& answer) {
  const util::Redactor& redactor = *server.redactor;
  if (answer.fetched.http_status == 0) {
    return "no response: " + redactor.redact(answer.fetched.end.message);
  }
  if (answer.fetched.http_status != 200) {
    return fmt::format("HTTP {}: {}", answer.fetched.http_status,
                       redactor.redact(protocol::error_message_from_body(answer.fetched.body)));
  }
  return fmt::format("the stream failed ({}): {}", metrics::error_class_name(answer.record.error),
                     redactor.redact(answer.record.error_message));
}

}  // namespace bench::app::conform
