// `bench conformance`: the server (the user's, or the embedded simulator), the recording proxy in
// front of it, the battery through the proxy, the table and the archive.
#include "bench/app/conform/conformance.hpp"

#include "bench/protocol/endpoint.hpp"

#include <ctime>
#include <exception>
#include <filesystem>

#include <fmt/format.h>

#include "bench/app/server/server_identity.hpp"
#include "bench/app/server/target.hpp"
#include "bench/cli/exit_codes.hpp"
#include "bench/engine/fetch.hpp"
#include "bench/record/recording_proxy.hpp"
#include "bench/util/atomic_file.hpp"
#include "bench/util/redact.hpp"
#include "conform_check.hpp"
#include "conformance_report.hpp"

namespace bench::app {

namespace {

using conform::CheckResult;
using conform::ConformServer;
using conform::Holds;

constexpr std::int64_t kRequestTimeoutMs = 60'000;  // no check's exchange takes longer
constexpr std::int64_t kSilenceLimitMs = 30'000;    // a hang is a failure, not a wait

std::string utc_now(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  ::gmtime_r(&now, &parts);
  char text[64];
  std::strftime(text, sizeof text, format, &parts);
  return text;
}

// The embedded simulator as a vLLM of a reasoning model with a prefix cache would answer, so
// that every row has something to show: a context of 4,096 tokens, 8 reasoning tokens per chat
// stream, a 404 for a model it does not serve, and fast enough for a battery of seconds.
sim::SimOptions conformance_sim() {
  sim::SimOptions sim;
  sim.max_model_len = 4096;
  sim.reasoning_tokens = 8;
  sim.prefix_cache = true;
  sim.refuse_unknown_model = true;
  sim.ttft_ms = 5;
  sim.tpot_ms = 1;
  return sim;
}

engine::EngineOptions conformance_engine() {
  engine::EngineOptions engine;
  engine.request_timeout_ms = kRequestTimeoutMs;
  engine.ttft_timeout_ms = kSilenceLimitMs;
  engine.stall_timeout_ms = kSilenceLimitMs;
  return engine;
}

// Fails in one line (RunError) when nothing answers HTTP at `base_url`: asked directly, since
// through the proxy an unreachable server looks like a proxy closing.
void check_reachable(const std::string& base_url, const std::string& shown_url,
                     const std::vector<std::string>& headers, const util::Redactor& redactor) {
  const engine::FetchResult got =
      engine::fetch(models_url(base_url), headers, "", conformance_engine());
  if (got.http_status == 0) {
    throw RunError(failed_exchange_text("GET", models_url(shown_url), got.end,
                                        redactor.redact(got.end.message)));
  }
}

// `text` with the proxy's root replaced by the server's, as the user knows it.
std::string as_shown(std::string text, const std::string& proxy_url, const std::string& shown) {
  for (std::size_t at = text.find(proxy_url); at != std::string::npos;
       at = text.find(proxy_url, at + shown.size())) {
    text.replace(at, proxy_url.size(), shown);
  }
  return text;
}

std::vector<CheckResult> run_checks(const ConformServer& server, std::ostream& err) {
  std::vector<CheckResult> results;
  for (const conform::Check& check : conform::checks()) {
    err << fmt::format("bench conformance: {}\n", check.name) << std::flush;
    CheckResult result{&check, {}};
    try {
      result.verdict = check.run(server);
    } catch (const std::exception& error) {
      result.verdict = {Holds::fails, server.redactor->redact(error.what())};
    }
    result.verdict.detail = as_shown(result.verdict.detail, server.base_url, server.shown_url);
    results.push_back(std::move(result));
  }
  return results;
}

bool any_fails(const std::vector<CheckResult>& results) {
  for (const CheckResult& result : results) {
    if (result.verdict.holds == Holds::fails) return true;
  }
  return false;
}

struct Archive {
  std::string dir;
  std::string error;  // why it cannot be written there; empty when it can
};

// The directory the archive goes to: -o, or a new one named for the time; one that already
// holds exchanges is refused, so two batteries never mix.
Archive archive_dir(const std::string& given) {
  Archive archive{given.empty() ? "bench-conformance-" + utc_now("%Y%m%d-%H%M%S") : given, ""};
  std::error_code error;
  if (!std::filesystem::exists(archive.dir, error)) return archive;
  if (!std::filesystem::is_directory(archive.dir, error)) {
    archive.error = fmt::format("-o '{}': not a directory", archive.dir);
  } else if (!std::filesystem::is_empty(archive.dir, error)) {
    archive.error = fmt::format("-o '{}': the directory is not empty; give a new one", archive.dir);
  }
  return archive;
}

// GET /v1/models through the proxy, its errors naming the server as the user gave it.
std::string discovered_model(const ConformServer& server) {
  try {
    return discover_model(server.base_url, *server.headers, server.engine, *server.redactor);
  } catch (const RunError& error) {
    throw RunError(as_shown(error.what(), server.base_url, server.shown_url));
  }
}

// Where the battery's exchanges go, and what the archive says of the server.
struct Recorded {
  record::RecordingProxy& proxy;
  std::string dir;
  std::string shown;  // the server as the table and SOURCE.md name it
  ServerIdentity identity;
};

// The checks through the proxy, then the archive's SOURCE.md and the table; the exit code.
int run_battery(const ConformServer& server, const Recorded& recorded, std::ostream& out,
                std::ostream& err) {
  err << fmt::format("bench conformance: {} (model {}), recording into {}\n", recorded.shown,
                     server.model, recorded.dir);
  const std::vector<CheckResult> results = run_checks(server, err);
  const std::uint64_t written = recorded.proxy.finish();
  write_file_atomically(recorded.dir + "/SOURCE.md",
                        conform::source_md({recorded.identity, recorded.shown, server.model,
                                            utc_now("%Y-%m-%dT%H:%M:%SZ")},
                                           results));
  conform::print_table(results, out);
  err << fmt::format(
      "bench conformance: {} exchanges and SOURCE.md written to {}: attach it to an issue "
      "(docs/usage.md)\n",
      written, recorded.dir);
  return any_fails(results) ? cli::kExitGateFailed : cli::kExitOk;
}

}  // namespace

int run_conformance(const cli::ConformanceOptions& options, std::ostream& out, std::ostream& err) {
  const Archive archive = archive_dir(options.out_dir);
  if (!archive.error.empty()) {
    err << "bench conformance: error: " << archive.error << "\n";
    return cli::kExitUsage;
  }
  std::vector<std::string> headers = options.headers;
  // The battery checks chat and completions: OpenAI's key header.
  for (std::string& line : protocol::endpoint_headers(protocol::Endpoint::chat, options.api_key)) {
    headers.push_back(std::move(line));
  }
  const std::vector<std::string> given =
      options.base_url.empty() ? std::vector<std::string>{} : std::vector{options.base_url};
  try {
    const Target target = open_target(given, conformance_sim());
    const util::Redactor redactor = util::redactor_for_request(headers, target.first_base_url());
    check_reachable(target.first_base_url(), target.shown_base_url, headers, redactor);
    auto started = record::RecordingProxy::start(target.first_base_url(), archive.dir);
    if (const auto* error = std::get_if<std::string>(&started)) {
      err << "bench conformance: error: " << *error << "\n";
      return cli::kExitUsage;
    }
    record::RecordingProxy& proxy = *std::get<std::unique_ptr<record::RecordingProxy>>(started);
    ConformServer server{
        proxy.url(), target.shown_base_url, &headers, conformance_engine(), options.model, {},
        &redactor};
    if (server.model.empty()) server.model = discovered_model(server);
    const Recorded recorded{
        .proxy = proxy,
        .dir = archive.dir,
        .shown = target.embedded ? "the embedded simulator" : target.shown_base_url,
        .identity =
            probe_server_identity({server.base_url, &headers, server.engine}, server.model)};
    server.max_model_len = recorded.identity.max_model_len;
    return run_battery(server, recorded, out, err);
  } catch (const RunError& error) {
    err << "bench conformance: error: " << error.what() << "\n";
    return cli::kExitRunFailed;
  }
}

}  // namespace bench::app
