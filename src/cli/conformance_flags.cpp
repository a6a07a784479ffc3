#include "bench/cli/conformance_flags.hpp"

#include <fmt/format.h>

#include "bench/cli/header_line.hpp"
#include "bench/cli/server_flags.hpp"
#include "bench/cli/values.hpp"
#include "bench/util/redact.hpp"

namespace bench::cli {

namespace {

bool has_crlf(const std::string& text) { return text.find_first_of("\r\n") != std::string::npos; }

}  // namespace

CLI::App* setup_conformance_flags(CLI::App& app, ConformanceOptions& options) {
  CLI::App* command = app.add_subcommand(
      "conformance",
      "Check what bench relies on in a server (streams, usage, cached tokens, reasoning, tool "
      "calls, errors, /tokenize, /metrics) with a short fixed battery, say in one table what "
      "holds, and record every exchange into a directory to attach to a bug report "
      "(docs/usage.md)");
  command
      ->add_option("--base-url", options.base_url,
                   "Server root URL, http://HOST:PORT (recorded through a plain HTTP proxy); "
                   "without it, the embedded simulator")
      ->envname("OPENAI_BASE_URL")
      ->option_text("URL");
  command->add_option("--model", options.model,
                      "Model to ask for (default: the first of GET /v1/models)");
  command
      ->add_option("--api-key", options.api_key,
                   "API key, sent as 'Authorization: Bearer KEY' (env OPENAI_API_KEY); never "
                   "printed, redacted in the recording")
      ->envname("OPENAI_API_KEY");
  command
      ->add_option("--header", options.headers,
                   "Extra request header 'Name: value' (or KEY=VALUE; repeatable); credentials "
                   "are redacted in the recording")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      ->add_option("-o,--out", options.out_dir,
                   "The archive's directory, new or empty: every exchange (bench record's format) "
                   "and SOURCE.md with the verdicts (default: ./bench-conformance-DATE-TIME)")
      ->option_text("DIR");
  return command;
}

void finish_conformance_flags(ConformanceOptions& options) {
  for (std::string& header : options.headers) header = checked_header_line(header);
  if (has_crlf(options.api_key)) {
    throw UsageError("--api-key: the key may not contain CR or LF characters");
  }
  if (has_crlf(options.model)) throw UsageError("--model: the name may not contain CR or LF");
  if (options.base_url.empty()) return;
  options.base_url = normalized_base_url(options.base_url);
  // The recording proxy forwards plain HTTP/1.1 with the request's own path (bench record).
  const std::string scheme = "http://";
  const std::string rest = options.base_url.substr(options.base_url.find("://") + 3);
  if (options.base_url.rfind(scheme, 0) != 0 || rest.find_first_of("/?#@") != std::string::npos) {
    throw UsageError(
        fmt::format("--base-url '{}': bench conformance records through a plain HTTP proxy; give "
                    "http://HOST:PORT (no TLS, path, query or user)",
                    util::url_with_secrets_hidden(options.base_url)));
  }
}

}  // namespace bench::cli
