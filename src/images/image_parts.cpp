#include "bench/images/image_parts.hpp"

#include <utility>

#include "bench/images/random_image.hpp"
#include "bench/util/splitmix64.hpp"

namespace bench::images {

using nlohmann::json;

std::vector<std::string> request_images(const ImageSpec& spec, std::uint64_t nonce,
                                        std::uint64_t request) {
  std::vector<std::string> urls;
  urls.reserve(static_cast<std::size_t>(std::max<std::int64_t>(0, spec.per_request)));
  const std::uint64_t base = util::splitmix64_mix(nonce ^ util::splitmix64(request));
  for (std::int64_t i = 0; i < spec.per_request; ++i) {
    urls.push_back(random_image_data_url({spec.width, spec.height}, spec.format,
                                         util::splitmix64(base + static_cast<std::uint64_t>(i))));
  }
  return urls;
}

std::uint64_t stream_nonce(std::uint64_t run_nonce, std::uint64_t stream) {
  return util::splitmix64_mix(run_nonce + util::splitmix64(stream));
}

json image_url_part(std::string data_url) {
  return json{{"type", "image_url"}, {"image_url", json{{"url", std::move(data_url)}}}};
}

json with_images(json messages, std::vector<std::string> data_urls) {
  if (data_urls.empty() || !messages.is_array()) return messages;
  for (auto message = messages.rbegin(); message != messages.rend(); ++message) {
    if (!message->is_object() || message->value("role", "") != "user") continue;
    json& content = (*message)["content"];
    json parts = json::array();
    if (content.is_string()) {
      parts.push_back(json{{"type", "text"}, {"text", content}});
    } else if (content.is_array()) {
      parts = content;
    }
    for (std::string& url : data_urls) parts.push_back(image_url_part(std::move(url)));
    content = std::move(parts);
    break;
  }
  return messages;
}

}  // namespace bench::images
