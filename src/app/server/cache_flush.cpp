#include "bench/app/server/cache_flush.hpp"

#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/app/server/target.hpp"
#include "bench/engine/fetch.hpp"
#include "bench/util/url.hpp"

namespace bench::app {

namespace {

using nlohmann::json;

// SGLang: python/sglang/srt/entrypoints/http_server.py (flush_cache, GET or POST).
// vLLM: vllm/entrypoints/openai/api_server.py (reset_prefix_cache, POST, registered only when
// envs.VLLM_SERVER_DEV_MODE). Neither reads a body; "{}" makes engine::fetch send a POST.
constexpr std::string_view kFlushCachePath = "/flush_cache";
constexpr std::string_view kResetPrefixCachePath = "/reset_prefix_cache";

bool is_json_object_with(const std::string& body, std::string_view key) {
  const json parsed = json::parse(body, nullptr, false);
  return parsed.is_object() && parsed.contains(key);
}

// llama.cpp's GET /v1/models lists its model "owned_by": "llamacpp" (tools/server/server.cpp).
bool models_owned_by_llama_cpp(const std::string& body) {
  const json parsed = json::parse(body, nullptr, false);
  if (!parsed.is_object() || !parsed.contains("data") || !parsed["data"].is_array()) return false;
  for (const json& model : parsed["data"]) {
    if (model.is_object() && model.value("owned_by", "") == "llamacpp") return true;
  }
  return false;
}

}  // namespace

std::string_view flush_method_name(FlushMethod method) {
  switch (method) {
    case FlushMethod::flush_cache: return "flush_cache";
    case FlushMethod::reset_prefix_cache: return "reset_prefix_cache";
    case FlushMethod::cache_prompt_false: return "cache_prompt_false";
    case FlushMethod::unavailable: return "unavailable";
  }
  return "unavailable";
}

CacheFlush::CacheFlush(FlushServer server, protocol::RequestOptions& request, std::ostream& err,
                       bool quiet)
    : server_(std::move(server)) {
  if (post(kFlushCachePath, nullptr)) {
    method_ = FlushMethod::flush_cache;
    if (!quiet) err << "bench: prefix cache flushed with POST /flush_cache before each point\n";
    return;
  }
  if (post(kResetPrefixCachePath, nullptr)) {
    method_ = FlushMethod::reset_prefix_cache;
    if (!quiet) {
      err << "bench: prefix cache flushed with POST /reset_prefix_cache before each point\n";
    }
    return;
  }
  if (is_llama_cpp()) {
    // llama.cpp reuses a slot's cached prompt unless the request says "cache_prompt": false
    // (tools/server/server.cpp, params_from_json_cmpl).
    const auto given = request.extra_body.find("cache_prompt");
    if (given == request.extra_body.end()) {
      request.extra_body["cache_prompt"] = false;
    } else if (*given != json(false)) {
      err << fmt::format(
          "bench: --flush-cache: llama.cpp: --extra-body sets cache_prompt {}, "
          "left as given: the prefix cache is not flushed\n",
          given->dump());
      return;
    }
    method_ = FlushMethod::cache_prompt_false;
    if (!quiet) err << "bench: --flush-cache: llama.cpp: cache_prompt false on every request\n";
    return;
  }
  err << "bench: --flush-cache: the server offers no way to flush its prefix cache (tried POST "
         "/flush_cache, /reset_prefix_cache; vLLM serves the latter only with "
         "VLLM_SERVER_DEV_MODE=1)\n";
}

void CacheFlush::before_point(std::ostream& err) {
  if (first_point_) {
    first_point_ = false;
    return;
  }
  std::string failure;
  const bool flushed =
      (method_ == FlushMethod::flush_cache && post(kFlushCachePath, &failure)) ||
      (method_ == FlushMethod::reset_prefix_cache && post(kResetPrefixCachePath, &failure));
  if (flushed || failure.empty() || failure_said_) return;
  failure_said_ = true;
  err << "bench: --flush-cache: " << failure << "; the run goes on with the cache as it is\n";
}

// True when the server answered 200; otherwise `failure` (when given) says what it answered.
bool CacheFlush::post(std::string_view path, std::string* failure) const {
  const std::string url = util::url_join(server_.base_url, path);
  const engine::FetchResult answer = engine::fetch(url, *server_.headers, "{}", server_.engine);
  if (answer.http_status == 200) return true;
  if (failure != nullptr) {
    *failure =
        answer.http_status == 0
            ? fmt::format("POST {} failed: {}", path, server_.redactor->redact(answer.end.message))
            : fmt::format("POST {} answered HTTP {}: {}", path, answer.http_status,
                          server_.redactor->redact(protocol::error_message_from_body(answer.body)));
  }
  return false;
}

// llama.cpp's GET /props answers its default_generation_settings (tools/server/server.cpp,
// handle_props); its /v1/models says who owns the model.
bool CacheFlush::is_llama_cpp() const {
  const engine::FetchResult props = engine::fetch(util::url_join(server_.base_url, "/props"),
                                                  *server_.headers, "", server_.engine);
  if (props.http_status == 200 && is_json_object_with(props.body, "default_generation_settings")) {
    return true;
  }
  const engine::FetchResult models =
      engine::fetch(models_url(server_.base_url), *server_.headers, "", server_.engine);
  return models.http_status == 200 && models_owned_by_llama_cpp(models.body);
}

}  // namespace bench::app
