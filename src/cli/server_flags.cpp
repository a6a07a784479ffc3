#include "bench/cli/server_flags.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>

#include <fmt/format.h>

#include "bench/cli/values.hpp"

namespace bench::cli {

std::string normalized_base_url(std::string url) {
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {
    throw UsageError(fmt::format("--base-url: '{}' is not an http:// or https:// URL", url));
  }
  // The path ends where a query or fragment begins: those stay, after every route bench adds
  // (util::url_join), as a server that wants ?api-version= or ?api_key= needs.
  const std::size_t query = std::min(url.find_first_of("?#"), url.size());
  std::string path = url.substr(0, query);
  while (!path.empty() && path.back() == '/') path.pop_back();
  // Users often paste the OpenAI client's base (…/v1); bench adds /v1/... itself.
  if (path.size() > 3 && path.ends_with("/v1")) path.resize(path.size() - 3);
  return path + url.substr(query);
}

std::vector<std::int64_t> parse_server_weights(const std::string& text, std::size_t servers) {
  const auto refuse = [&](std::string_view why) {
    return UsageError(fmt::format("--server-weights {}: {}", text, why));
  };
  std::vector<std::int64_t> weights;
  std::string_view rest = text;
  for (;;) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    std::int64_t weight = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), weight);
    if (item.empty() || error != std::errc() || end != item.data() + item.size() || weight < 1 ||
        weight > kMaxServerWeight) {
      throw refuse(fmt::format("'{}' is not a whole number 1..{}", item, kMaxServerWeight));
    }
    weights.push_back(weight);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (weights.size() != servers) {
    throw refuse(fmt::format("{} weights for {} --base-url servers (one each, in their order)",
                             weights.size(), servers));
  }
  return weights;
}

void finish_server_flags(RunOptions& run, const std::string& weights_text) {
  for (std::string& url : run.base_urls) url = normalized_base_url(std::move(url));
  for (std::size_t i = 0; i < run.base_urls.size(); ++i) {
    if (std::find(run.base_urls.begin() + static_cast<std::ptrdiff_t>(i) + 1, run.base_urls.end(),
                  run.base_urls[i]) != run.base_urls.end()) {
      throw UsageError(
          fmt::format("--base-url: '{}' is given twice; --server-weights sends one server more",
                      run.base_urls[i]));
    }
  }
  if (run.base_urls.size() > 1 && run.server.flush_cache) {
    throw UsageError(
        "--flush-cache: empties one server's cache; not supported with several "
        "--base-url servers");
  }
  if (weights_text.empty()) return;
  if (run.base_urls.size() < 2) {
    throw UsageError(
        fmt::format("--server-weights {}: applies to several --base-url servers", weights_text));
  }
  run.server_weights = parse_server_weights(weights_text, run.base_urls.size());
}

}  // namespace bench::cli
