#include "side_route_checks.hpp"

#include <exception>

#include <fmt/format.h>

#include "bench/app/server/server_tokenizer.hpp"
#include "bench/app/server/target.hpp"
#include "bench/server_metrics/exposition.hpp"
#include "bench/server_metrics/snapshot.hpp"
#include "exchange.hpp"

namespace bench::app::conform {

namespace {

constexpr std::string_view kCountedText = "The quick brown fox jumps over the lazy dog.";

}  // namespace

Verdict check_tokenize(const ConformServer& server) {
  // A server without the route has nothing to show; one that has it must answer in a dialect
  // bench reads (server_tokenizer.hpp).
  const nlohmann::json probe = {{"model", server.model}, {"prompt", kCountedText}};
  const engine::FetchResult route = fetch_route(server, "/tokenize", probe.dump());
  if (route.http_status == 404 || route.http_status == 405) {
    return {Holds::not_shown, fmt::format("no /tokenize (HTTP {})", route.http_status)};
  }
  std::unique_ptr<ServerTokenizer> tokenizer;
  try {
    tokenizer = ServerTokenizer::open(
        {server.base_url, server.headers, server.engine, server.model, server.redactor});
  } catch (const RunError& error) {
    return {Holds::fails, error.what()};
  }
  std::size_t counted = 0;
  try {
    counted = tokenizer->encode(kCountedText).size();
  } catch (const std::exception& error) {
    return {Holds::fails, server.redactor->redact(error.what())};
  }
  const std::size_t added = tokenizer->added_special_tokens().value_or(0);
  const protocol::RequestOptions options =
      request_options(server, protocol::Endpoint::completions, 1);
  const Answer answer =
      send(server, protocol::Endpoint::completions, streamed_body(options, kCountedText));
  if (!answer.record.ok()) return {Holds::fails, failure_text(server, answer)};
  if (answer.record.prompt_token_source != metrics::TokenSource::usage) {
    return {Holds::not_shown, "the completion carried no usage.prompt_tokens to hold it to"};
  }
  const auto expected = static_cast<std::int64_t>(counted + added);
  const std::string counts = fmt::format("/tokenize ({}) {} + {} special, usage.prompt_tokens {}",
                                         server_dialect_name(tokenizer->dialect()), counted, added,
                                         answer.record.prompt_tokens);
  return {expected == answer.record.prompt_tokens ? Holds::holds : Holds::fails, counts};
}

Verdict check_metrics(const ConformServer& server) {
  const engine::FetchResult got = fetch_route(server, "/metrics");
  if (got.http_status != 200) {
    return {Holds::not_shown, got.http_status == 0
                                  ? "no answer: " + server.redactor->redact(got.end.message)
                                  : fmt::format("GET /metrics answered HTTP {}", got.http_status)};
  }
  const server_metrics::ParseResult parsed = server_metrics::parse_exposition(got.body);
  if (!parsed.ok()) {
    return {Holds::fails, "not Prometheus text: " + parsed.error->describe()};
  }
  const server_metrics::Snapshot snapshot = server_metrics::read_snapshot(parsed.exposition);
  if (snapshot.family == server_metrics::ServerFamily::unknown) {
    return {Holds::fails,
            fmt::format("{} samples, none of a family bench reads (vllm:, sglang:, llamacpp:, "
                        "tgi_, trtllm_)",
                        parsed.exposition.sample_count())};
  }
  if (!snapshot.prompt_tokens || !snapshot.generation_tokens) {
    return {Holds::fails, fmt::format("{}: no prompt or generation token counter",
                                      server_metrics::to_string(snapshot.family))};
  }
  return {Holds::holds, fmt::format("{}: prompt tokens {:g}, generation tokens {:g}",
                                    server_metrics::to_string(snapshot.family),
                                    *snapshot.prompt_tokens, *snapshot.generation_tokens)};
}

}  // namespace bench::app::conform
