#include "bench/app/point/early_stop.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "bench/util/text.hpp"

namespace bench::app {

namespace {

constexpr std::string_view kCredentialsHint =
    "check --api-key or OPENAI_API_KEY (or the credential --header)";
constexpr std::string_view kModelHint = "check --model (GET /v1/models lists the served models)";

// vLLM (serving_engine.py, _check_model): "The model `x` does not exist."; OpenAI: "The model
// `x` does not exist or you do not have access to it."; Ollama: "model 'x' not found".
bool says_model_not_found(std::string_view message) {
  const std::string lowered = util::ascii_lowered(message);
  if (lowered.find("model") == std::string::npos) return false;
  for (const std::string_view phrase : {"does not exist", "not found", "no such model"}) {
    if (lowered.find(phrase) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> describe_refusal(long http_status, std::string_view server_message) {
  std::string_view label;
  std::string_view hint;
  if (http_status == 401 || http_status == 403) {
    label = http_status == 401 ? "unauthorized" : "forbidden";
    hint = kCredentialsHint;
  } else if (http_status == 404 && says_model_not_found(server_message)) {
    label = "model not found";
    hint = kModelHint;
  } else {
    return std::nullopt;
  }
  if (server_message.empty()) return fmt::format("HTTP {} ({}); {}", http_status, label, hint);
  return fmt::format("HTTP {} ({}): {}; {}", http_status, label, server_message, hint);
}

std::optional<std::string> describe_refusal(const metrics::RequestRecord& record) {
  if (record.error != metrics::ErrorClass::http_4xx) return std::nullopt;
  // The stream reader words an HTTP error "HTTP <status>: <server message>".
  std::string_view message = record.error_message;
  const std::string status_prefix = fmt::format("HTTP {}", record.http_status);
  if (message.starts_with(status_prefix)) message.remove_prefix(status_prefix.size());
  if (message.starts_with(": ")) message.remove_prefix(2);
  return describe_refusal(record.http_status, message);
}

void EarlyStop::observe(const metrics::RequestRecord& record) {
  if (record.cancelled() || ended_.load(std::memory_order_relaxed) >= first_requests_) return;
  if (ended_.fetch_add(1, std::memory_order_relaxed) >= first_requests_) return;
  const std::optional<std::string> refusal = describe_refusal(record);
  if (!refusal) return;
  {
    const std::lock_guard lock(mutex_);
    if (first_refusal_.empty()) first_refusal_ = *refusal;
  }
  // The first requests to end are all refused exactly when the count of refused ones among
  // them reaches their number.
  if (refused_.fetch_add(1, std::memory_order_relaxed) + 1 == first_requests_) {
    stopping_.store(true, std::memory_order_relaxed);
  }
}

std::string EarlyStop::reason() const {
  if (!stopping()) return "";
  const std::lock_guard lock(mutex_);
  if (first_requests_ == 1) {
    return fmt::format("stopped after the first request failed with {}", first_refusal_);
  }
  return fmt::format("stopped after the first {} requests all failed with {}", first_requests_,
                     first_refusal_);
}

}  // namespace bench::app
