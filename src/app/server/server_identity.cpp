#include "bench/app/server/server_identity.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "bench/app/server/server_metrics_fetch.hpp"
#include "bench/app/server/startup_fetch.hpp"
#include "bench/app/server/target.hpp"
#include "bench/engine/fetch.hpp"
#include "bench/util/url.hpp"

namespace bench::app {
namespace {

using nlohmann::json;

json object_of(std::string_view body) {
  json parsed = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  return parsed.is_object() ? parsed : json();
}

std::optional<std::string> string_at(const json& object, std::string_view key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_string()) return std::nullopt;
  std::string value = found->get<std::string>();
  if (value.empty()) return std::nullopt;
  return value;
}

std::optional<std::int64_t> positive_at(const json& object, std::string_view key) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number_integer()) return std::nullopt;
  const auto value = found->get<std::int64_t>();
  if (value <= 0) return std::nullopt;
  return value;
}

// A field already known (from an earlier, more specific answer) is kept.
template <typename T>
void keep_first(std::optional<T>& field, std::optional<T> value) {
  if (!field && value) field = std::move(value);
}

std::optional<std::string> family_of_owner(const std::string& owner) {
  if (owner == "vllm") return "vllm";
  if (owner == "sglang") return "sglang";
  if (owner == "llamacpp") return "llama.cpp";
  return std::nullopt;
}

// A {"version": "..."} answer (vLLM's /version, Ollama's /api/version): the family its route
// belongs to, and the version.
bool read_bare_version(std::string_view body, const char* family, ServerIdentity& identity) {
  const json parsed = object_of(body);
  const auto version = parsed.is_object() ? string_at(parsed, "version") : std::nullopt;
  if (!version) return false;
  keep_first(identity.family, std::optional<std::string>(family));
  keep_first(identity.version, version);
  return true;
}

}  // namespace

bool read_models(std::string_view body, const std::string& model, ServerIdentity& identity) {
  const json parsed = object_of(body);
  if (!parsed.is_object() || !parsed.contains("data") || !parsed["data"].is_array()) return false;
  for (const json& card : parsed["data"]) {
    if (!card.is_object() || card.value("id", "") != model) continue;
    keep_first(identity.model, string_at(card, "id"));
    keep_first(identity.max_model_len, positive_at(card, "max_model_len"));
    if (const auto owner = string_at(card, "owned_by"))
      keep_first(identity.family, family_of_owner(*owner));
  }
  return true;
}

bool read_vllm_version(std::string_view body, ServerIdentity& identity) {
  return read_bare_version(body, "vllm", identity);
}

bool read_sglang_server_info(std::string_view body, ServerIdentity& identity) {
  const json parsed = object_of(body);
  if (!parsed.is_object() || !parsed.contains("model_path")) return false;
  keep_first(identity.family, std::optional<std::string>("sglang"));
  keep_first(identity.version, string_at(parsed, "version"));
  keep_first(identity.model, string_at(parsed, "model_path"));
  keep_first(identity.max_model_len, positive_at(parsed, "context_length"));
  return true;
}

bool read_llamacpp_props(std::string_view body, ServerIdentity& identity) {
  const json parsed = object_of(body);
  if (!parsed.is_object() || !parsed.contains("default_generation_settings")) return false;
  keep_first(identity.family, std::optional<std::string>("llama.cpp"));
  keep_first(identity.version, string_at(parsed, "build_info"));
  keep_first(identity.model, string_at(parsed, "model_path"));
  const json& settings = parsed["default_generation_settings"];
  if (settings.is_object()) keep_first(identity.max_model_len, positive_at(settings, "n_ctx"));
  return true;
}

bool read_tgi_info(std::string_view body, ServerIdentity& identity) {
  const json parsed = object_of(body);
  if (!parsed.is_object() || string_at(parsed, "router") != "text-generation-router") return false;
  keep_first(identity.family, std::optional<std::string>("tgi"));
  keep_first(identity.version, string_at(parsed, "version"));
  keep_first(identity.model, string_at(parsed, "model_id"));
  keep_first(identity.max_model_len, positive_at(parsed, "max_total_tokens"));
  return true;
}

bool read_ollama_version(std::string_view body, ServerIdentity& identity) {
  return read_bare_version(body, "ollama", identity);
}

ServerIdentity common_identity(const std::vector<ServerIdentity>& servers,
                               const std::vector<std::string>& shown_urls,
                               std::vector<std::string>& differences) {
  if (servers.empty()) return {};
  ServerIdentity common = servers.front();
  const auto differs = [](const std::optional<std::string>& a,
                          const std::optional<std::string>& b) { return a && b && *a != *b; };
  for (std::size_t k = 1; k < servers.size(); ++k) {
    const ServerIdentity& server = servers[k];
    if (server.max_model_len) {
      common.max_model_len =
          std::min(common.max_model_len.value_or(*server.max_model_len), *server.max_model_len);
    }
    const ServerIdentity& first = servers.front();
    if (differs(first.family, server.family) || differs(first.version, server.version) ||
        differs(first.model, server.model)) {
      differences.push_back(fmt::format("{} is {} {} serving {}, unlike {} ({} {} serving {})",
                                        shown_urls[k], server.family.value_or("?"),
                                        server.version.value_or("?"), server.model.value_or("?"),
                                        shown_urls.front(), first.family.value_or("?"),
                                        first.version.value_or("?"), first.model.value_or("?")));
    }
  }
  return common;
}

ServerIdentity probe_server_identity(const IdentityServer& server, const std::string& model) {
  engine::EngineOptions options = server.engine;
  // As for a scrape: a server that never answers cannot hold the run up.
  options.request_timeout_ms = options.request_timeout_ms > 0
                                   ? std::min(options.request_timeout_ms, kScrapeTimeoutMs)
                                   : kScrapeTimeoutMs;
  const auto get = [&](std::string_view path) {
    const engine::FetchResult answer =
        startup_fetch(util::url_join(server.base_url, path), *server.headers, "", options);
    return answer.http_status == 200 ? answer.body : std::string();
  };
  ServerIdentity identity;
  read_models(get("/v1/models"), model, identity);
  // llama.cpp: tools/server/server.cpp (handle_props); SGLang: python/sglang/srt/entrypoints/
  // http_server.py (get_server_info, /server_info since 0.4.x); TGI: router/src/server.rs
  // (get_model_info); vLLM: vllm/entrypoints/openai/api_server.py (show_version); Ollama:
  // server/routes.go (/api/version; its /version is not a route, so vLLM's is asked first).
  if (read_llamacpp_props(get("/props"), identity)) return identity;
  if (read_sglang_server_info(get("/server_info"), identity)) return identity;
  if (read_sglang_server_info(get("/get_server_info"), identity)) return identity;
  if (read_tgi_info(get("/info"), identity)) return identity;
  if (read_vllm_version(get("/version"), identity)) return identity;
  read_ollama_version(get("/api/version"), identity);
  return identity;
}

json identity_json(const ServerIdentity& identity) {
  const auto or_null = [](const auto& value) { return value ? json(*value) : json(nullptr); };
  return {{"family", or_null(identity.family)},
          {"version", or_null(identity.version)},
          {"model", or_null(identity.model)},
          {"max_model_len", or_null(identity.max_model_len)}};
}

namespace {

// A dataset's longest request, read from it: refused in tokens; in words not checked at all,
// since a word is one token or several and a guess would refuse good runs or pass bad ones.
std::optional<ContextVerdict> check_dataset_fit(const ContextFit& fit, std::int64_t max_model_len) {
  const std::int64_t longest = fit.longest_prompt + fit.longest_output;
  if (!fit.in_tokens) {
    return ContextVerdict{
        false, true,
        fmt::format("context check not made: the {} dataset's lengths are words, not tokens "
                    "(its longest request: {} words plus max_tokens {}; the model's "
                    "max_model_len: {} tokens){}",
                    fit.dataset, fit.longest_prompt, fit.longest_output, max_model_len,
                    fit.dataset == "shared-prefix" ? "" : "; --tokenizer counts tokens")};
  }
  if (longest <= max_model_len) return std::nullopt;
  return ContextVerdict{
      true, false,
      fmt::format("the {} dataset's longest request, a prompt of {} tokens plus max_tokens {}, "
                  "makes {} tokens, beyond the model's max_model_len {}: every such request "
                  "would be refused; {}",
                  fit.dataset, fit.longest_prompt, fit.longest_output, longest, max_model_len,
                  fit.remedy)};
}

// A session's last turn sends its whole history: every earlier prompt and reply, then its own
// prompt, and asks max_tokens more. A warning, never a refusal: replies may end before
// max_tokens, and the earlier turns fit whatever the later ones do.
std::optional<ContextVerdict> check_session_fit(const ContextFit& fit, std::int64_t max_model_len) {
  const std::int64_t longest = fit.turns * (fit.longest_prompt + fit.longest_output);
  if (longest <= max_model_len) return std::nullopt;
  return ContextVerdict{
      false, false,
      fmt::format("a session's last turn sends {} prompts of up to {} {} and the {} replies "
                  "before it, up to {} tokens each, and asks max_tokens {}: up to {} in all, "
                  "beyond the model's max_model_len {} tokens; later turns may be refused "
                  "(fewer --turns, or a shorter --input-len or --output-len)",
                  fit.turns, fit.longest_prompt, fit.in_tokens ? "tokens" : "words", fit.turns - 1,
                  fit.longest_output, fit.longest_output, longest, max_model_len)};
}

}  // namespace

std::optional<ContextVerdict> check_context_fit(const ContextFit& fit) {
  if (!fit.max_model_len) return std::nullopt;
  if (!fit.dataset.empty()) return check_dataset_fit(fit, *fit.max_model_len);
  if (fit.turns > 1) return check_session_fit(fit, *fit.max_model_len);
  const std::int64_t longest = fit.longest_prompt + fit.longest_output;
  if (longest <= *fit.max_model_len) return std::nullopt;
  if (fit.in_tokens) {
    return ContextVerdict{
        true, false,
        fmt::format("prompts of up to {} tokens plus max_tokens {} make {} tokens, beyond the "
                    "model's max_model_len {}: every such request would be refused; lower "
                    "--input-len or --output-len",
                    fit.longest_prompt, fit.longest_output, longest, *fit.max_model_len)};
  }
  return ContextVerdict{
      false, false,
      fmt::format("prompts of up to {} words plus max_tokens {} may exceed the model's "
                  "max_model_len {} tokens (a word is a token or more): requests may be refused",
                  fit.longest_prompt, fit.longest_output, *fit.max_model_len)};
}

}  // namespace bench::app
