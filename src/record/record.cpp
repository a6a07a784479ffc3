#include "bench/record/record.hpp"

#include <arpa/inet.h>
#include <netdb.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>

#include <fmt/format.h>

#include "bench/record/weka_trace.hpp"
#include "bench/tokenizer/hf_tokenizer.hpp"
#include "bench/util/text.hpp"
#include "exchange_writer.hpp"
#include "relay.hpp"
#include "resolve.hpp"

namespace bench::record {

namespace {

constexpr int kExitUsage = 2;        // cli::kExitUsage; record does not depend on cli
constexpr int kExitCannotServe = 3;  // cli::kExitRunFailed

}  // namespace

std::variant<in_addr, std::string> resolve(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int error = ::getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (error != 0 || found == nullptr) {
    return fmt::format("cannot resolve '{}': {}", host, ::gai_strerror(error));
  }
  const in_addr address = reinterpret_cast<const sockaddr_in*>(found->ai_addr)->sin_addr;
  ::freeaddrinfo(found);
  return address;
}

std::variant<Upstream, std::string> parse_upstream(const std::string& url) {
  const std::string scheme = "http://";
  if (url.rfind(scheme, 0) != 0) {
    return fmt::format("--upstream '{}': give an http:// URL (the proxy records plain HTTP/1.1)",
                       url);
  }
  std::string rest = url.substr(scheme.size());
  const std::size_t slash = rest.find('/');
  if (slash != std::string::npos) {
    if (rest.substr(slash) != "/") {
      return fmt::format("--upstream '{}': no path: requests are forwarded with their own path",
                         url);
    }
    rest.resize(slash);
  }
  if (rest.find('@') != std::string::npos) {
    return fmt::format(
        "--upstream: no user or password in the URL (send credentials as headers: "
        "they are redacted in the recording)");
  }
  Upstream upstream;
  const std::size_t colon = rest.rfind(':');
  upstream.host = rest.substr(0, colon);
  if (colon != std::string::npos) {
    const std::string port = rest.substr(colon + 1);
    char* end = nullptr;
    const long value = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end != '\0' || value < 1 || value > 65535) {
      return fmt::format("--upstream '{}': '{}' is not a port", url, port);
    }
    upstream.port = static_cast<std::uint16_t>(value);
  }
  if (upstream.host.empty()) return fmt::format("--upstream '{}': no host", url);
  return upstream;
}

namespace {

// A directory given by `flag`, created if missing; the reason in one line when it cannot be.
std::optional<std::string> make_directory(const char* flag, const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error || !std::filesystem::is_directory(dir)) {
    return fmt::format("{} '{}': cannot create the directory: {}", flag, dir, error.message());
  }
  return std::nullopt;
}

// --weka-trace's recorder, its directory made and its tokenizer read; the reason in one line
// when it cannot be. A directory that already holds traces is refused: the new sessions would
// be mixed with the old ones under the same names.
std::variant<std::unique_ptr<WekaTraceRecorder>, std::string> trace_recorder(
    const RecordOptions& options) {
  if (options.weka_trace_dir.empty()) return std::unique_ptr<WekaTraceRecorder>();
  if (auto error = make_directory("--weka-trace", options.weka_trace_dir)) return *error;
  std::error_code unlisted;  // a directory just made is listed; one that is not holds nothing
  for (const auto& entry : std::filesystem::directory_iterator(options.weka_trace_dir, unlisted)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("session_", 0) == 0 && entry.path().extension() == ".json") {
      return fmt::format("--weka-trace '{}': already holds traces ({}); give an empty directory",
                         options.weka_trace_dir, name);
    }
  }
  WekaTraceOptions traces;
  traces.dir = options.weka_trace_dir;
  // 64 bits from the system's entropy: the salt lives in this process only.
  std::random_device entropy;
  traces.salt = (std::uint64_t{entropy()} << 32) ^ entropy();
  if (!options.tokenizer_path.empty()) {
    try {
      traces.tokenizer = tokenizer::load_hf_tokenizer(options.tokenizer_path);
    } catch (const tokenizer::TokenizerError& error) {
      return fmt::format("--tokenizer: {}", error.what());
    }
  }
  return std::make_unique<WekaTraceRecorder>(std::move(traces));
}

// The traces' last words: where they went, and what in them is not the server's own count.
void report_traces(const WekaTraceTally& tally, const RecordOptions& options) {
  fmt::print(stderr, "bench record: {} sessions ({} requests) written to {} as Weka traces\n",
             tally.sessions, tally.requests, options.weka_trace_dir);
  if (tally.counted > 0) {
    fmt::print(stderr, "bench record: {} requests had no usage: their lengths are counted in {}\n",
               tally.counted, tally.unit);
  }
  if (tally.reconciled > 0) {
    fmt::print(stderr,
               "bench record: {} requests: the server's prompt_tokens make another number of "
               "blocks than the {} counted; their hash ids are padded or cut to the server's\n",
               tally.reconciled, tally.unit);
  }
  if (tally.left_out > 0) {
    fmt::print(stderr, "bench record: {} exchanges are in no trace (the first: {})\n",
               tally.left_out, tally.first_left_out);
  }
}

// Relays until `stop`, then writes what is complete.
void relay_until_stopped(const sockaddr_in& at, const sockaddr_in& to, const RecordOptions& options,
                         WekaTraceRecorder* traces, const StopFlag& stop) {
  ExchangeWriter writer(options.out_dir, traces);
  {
    std::vector<std::string> session_headers;
    for (const std::string& name : options.session_headers) {
      session_headers.push_back(util::ascii_lowered(name));
    }
    Relay relay(at, to, writer, std::move(session_headers));
    fmt::print(stderr, "bench record: listening on http://{}:{} (forwarding to {}, writing {})\n",
               options.listen_host, relay.port(), options.upstream_url,
               options.out_dir.empty() ? options.weka_trace_dir : options.out_dir);
    std::fflush(stderr);
    relay.run(stop);
  }
  writer.finish();
  if (!options.out_dir.empty()) {
    fmt::print(stderr, "bench record: stopped; {} exchanges written to {}\n", writer.written(),
               options.out_dir);
  }
}

}  // namespace

int run_record(const RecordOptions& options, const StopFlag& stop) {
  const auto upstream = parse_upstream(options.upstream_url);
  if (const auto* error = std::get_if<std::string>(&upstream)) {
    fmt::print(stderr, "bench record: error: {}\n", *error);
    return kExitUsage;
  }
  const Upstream& server = std::get<Upstream>(upstream);
  const auto server_address = resolve(server.host);
  const auto listen_address = resolve(options.listen_host);
  for (const auto* resolved : {&server_address, &listen_address}) {
    if (const auto* error = std::get_if<std::string>(resolved)) {
      fmt::print(stderr, "bench record: error: {}\n", *error);
      return kExitUsage;
    }
  }
  if (!options.out_dir.empty()) {
    if (const auto error = make_directory("--out", options.out_dir)) {
      fmt::print(stderr, "bench record: error: {}\n", *error);
      return kExitUsage;
    }
  }
  auto traces = trace_recorder(options);
  if (const auto* error = std::get_if<std::string>(&traces)) {
    fmt::print(stderr, "bench record: error: {}\n", *error);
    return kExitUsage;
  }
  WekaTraceRecorder* recorder = std::get<std::unique_ptr<WekaTraceRecorder>>(traces).get();
  sockaddr_in to{}, at{};
  to.sin_family = at.sin_family = AF_INET;
  to.sin_addr = std::get<in_addr>(server_address);
  to.sin_port = htons(server.port);
  at.sin_addr = std::get<in_addr>(listen_address);
  at.sin_port = htons(options.listen_port);
  try {
    relay_until_stopped(at, to, options, recorder, stop);
    if (recorder != nullptr) {
      report_traces(recorder->write(), options);
    }
  } catch (const std::exception& failure) {
    fmt::print(stderr, "bench record: error: {}\n", failure.what());
    return kExitCannotServe;
  }
  return 0;
}

}  // namespace bench::record
