#include "bench/record/record.hpp"

#include <arpa/inet.h>
#include <netdb.h>

#include <cstdio>
#include <exception>
#include <filesystem>

#include <fmt/format.h>

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
  std::error_code error;
  std::filesystem::create_directories(options.out_dir, error);
  if (error || !std::filesystem::is_directory(options.out_dir)) {
    fmt::print(stderr, "bench record: error: --out '{}': cannot create the directory: {}\n",
               options.out_dir, error.message());
    return kExitUsage;
  }
  sockaddr_in to{}, at{};
  to.sin_family = at.sin_family = AF_INET;
  to.sin_addr = std::get<in_addr>(server_address);
  to.sin_port = htons(server.port);
  at.sin_addr = std::get<in_addr>(listen_address);
  at.sin_port = htons(options.listen_port);
  try {
    ExchangeWriter writer(options.out_dir);
    {
      Relay relay(at, to, writer);
      fmt::print(stderr, "bench record: listening on http://{}:{} (forwarding to {}, writing {})\n",
                 options.listen_host, relay.port(), options.upstream_url, options.out_dir);
      std::fflush(stderr);
      relay.run(stop);
    }
    writer.finish();
    fmt::print(stderr, "bench record: stopped; {} exchanges written to {}\n", writer.written(),
               options.out_dir);
  } catch (const std::exception& failure) {
    fmt::print(stderr, "bench record: error: {}\n", failure.what());
    return kExitCannotServe;
  }
  return 0;
}

}  // namespace bench::record
