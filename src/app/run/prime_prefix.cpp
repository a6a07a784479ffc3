#include "bench/app/run/prime_prefix.hpp"

#include <fmt/format.h>

#include "bench/app/point/prompt_body.hpp"
#include "bench/engine/fetch.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/util/redact.hpp"
#include "bench/workload/prefix_share.hpp"

namespace bench::app {

namespace {

// The priming request: the point's system prompt and a question of its own, in the shape its
// requests send (prompt_body; a multi-turn session's first turn has the same), the run's tools
// included, without images (they come after the shared prompt).
std::string priming_body(const PreparedRun& prepared, const workload::Prompt& prompt) {
  protocol::RequestOptions request = prepared.request;
  request.max_tokens = 1;
  return prompt_body(request, prompt);
}

}  // namespace

std::optional<std::string> prime_prefix(const RunPlan& plan, const PreparedRun& prepared,
                                        const LoadPoint& point, const StopFlag& stop) {
  if (point.prefix_share.value_or(0) <= 0 || prepared.prompts == nullptr) return std::nullopt;
  const workload::Prompt prompt = prepared.prompts->prompt(
      workload::prompt_index(point.prompt_stream, workload::kPrimeRequest));
  const std::string body = priming_body(prepared, prompt);
  engine::EngineOptions engine = plan.engine;
  engine.concurrency = 1;
  for (const std::string& url : prepared.urls) {
    const engine::FetchResult got =
        engine::fetch(url, plan.headers, body, engine, plan.limits.max_response_bytes, &stop);
    if (got.http_status == 200 && got.end.error == metrics::ErrorClass::none) continue;
    const std::string why = got.http_status == 0
                                ? got.end.message
                                : fmt::format("HTTP {}: {}", got.http_status,
                                              protocol::error_message_from_body(got.body));
    return fmt::format("the shared system prompt could not be primed on {}: {}",
                       util::url_with_secrets_hidden(url), prepared.redactor->redact(why));
  }
  return std::nullopt;
}

}  // namespace bench::app
