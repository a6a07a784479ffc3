#pragma once
// The server a run measures, settled before any clock starts: the user's, or the embedded
// simulator started on a free loopback port; its model (GET /v1/models when not given); and
// whether it answers per-chunk usage (vLLM's continuous_usage_stats) so chunks' token counts
// can be exact.
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/engine/engine.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/sim/sim_server.hpp"
#include "bench/util/redact.hpp"
#include "bench/util/url.hpp"

namespace bench::app {

/// A condition that stops the run before anything is measured (exit code 3).
struct RunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Target {
  std::unique_ptr<sim::SimServer> embedded;  // set when bench serves its own simulator
  // Every server's root ("http://host:port", no trailing slash), one or more (--base-url
  // repeated); the first is asked what the run needs of one server (its model, its tokenizer).
  std::vector<std::string> base_urls;
  std::string shown_base_url;  // the first as shown and stored: any userinfo password hidden
  const std::string& first_base_url() const { return base_urls.front(); }
};

/// The server's model list, GET <base_url>/v1/models: model discovery, the cache flush's
/// server check and the connections opened before a run all ask it.
inline std::string models_url(const std::string& base_url) {
  return util::url_join(base_url, "/v1/models");
}

/// Why an exchange with `shown_url` failed before any response: "cannot reach URL: MESSAGE"
/// when no connection was made, "reached HOST:PORT but it did not answer HTTP (WHAT URL:
/// MESSAGE)" when one was and no status line came back (another protocol on that port).
std::string failed_exchange_text(const std::string& what, const std::string& shown_url,
                                 const engine::TransferEnd& end, const std::string& message);

/// The servers `base_urls` (the first is base_url); starts the embedded simulator when there
/// are none. Throws RunError when it cannot.
Target open_target(const std::vector<std::string>& base_urls, const sim::SimOptions& sim);

/// GET /v1/models and the first id, as vLLM's and SGLang's benchmarks do by default.
/// Throws RunError naming the URL (unreachable, HTTP error, no model listed); a 401 or 403 says
/// to check the credentials. `redactor` hides them in the server's text.
std::string discover_model(const std::string& base_url, const std::vector<std::string>& headers,
                           const engine::EngineOptions& engine, const util::Redactor& redactor);

/// Sends one short streamed request asking for per-chunk usage; true when the server answered
/// it with a clean stream. Throws RunError when the server cannot be reached at all, or refuses
/// the request for good (describe_refusal: credentials, unknown model).
bool probe_per_chunk_usage(const std::string& url, const std::vector<std::string>& headers,
                           protocol::RequestOptions request, const engine::EngineOptions& engine,
                           const util::Redactor& redactor);

/// Sends one streamed request of `messages` (chat) asking for one token; the prompt_tokens its
/// usage reported, or nullopt when it reported none or failed. Throws RunError as
/// probe_per_chunk_usage does.
std::optional<std::int64_t> probe_prompt_tokens(const std::string& url,
                                                const std::vector<std::string>& headers,
                                                protocol::RequestOptions request,
                                                const nlohmann::json& messages,
                                                const engine::EngineOptions& engine,
                                                const util::Redactor& redactor);

}  // namespace bench::app
