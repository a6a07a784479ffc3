#include "bench/sim/image_tokens.hpp"

#include <fmt/format.h>

#include "bench/images/image_header.hpp"
#include "bench/util/fnv1a.hpp"

namespace bench::sim {
namespace {

using nlohmann::json;

std::int64_t patches(std::int64_t side, std::int64_t patch_px) {
  return (side + patch_px - 1) / patch_px;
}

// The URL of an image_url part: {"image_url": {"url": ...}} (OpenAI), or a bare string (which
// some clients send and vLLM takes too); empty when neither.
std::string url_of(const json& part) {
  const auto image_url = part.find("image_url");
  if (image_url == part.end()) return {};
  if (image_url->is_string()) return image_url->get<std::string>();
  if (!image_url->is_object()) return {};
  const auto url = image_url->find("url");
  return url != image_url->end() && url->is_string() ? url->get<std::string>() : std::string();
}

bool is_image_part(const json& part) {
  return part.is_object() && part.value("type", json()) == "image_url";
}

}  // namespace

std::optional<PartImage> image_of_part(const json& part, std::int64_t patch_px) {
  if (!is_image_part(part)) return std::nullopt;
  const std::optional<std::string> bytes = images::data_url_bytes(url_of(part));
  if (!bytes) return std::nullopt;
  const std::optional<images::ImageHeader> header = images::read_image_header(*bytes);
  if (!header) return std::nullopt;
  util::Fnv1a64 hash;
  hash.add(*bytes);
  return PartImage{patches(header->size.width, patch_px) * patches(header->size.height, patch_px),
                   hash.value()};
}

std::variant<ImageTokens, std::string> count_image_tokens(const json& messages,
                                                          std::int64_t patch_px) {
  ImageTokens out;
  for (const json& message : messages) {
    const auto content = message.find("content");
    if (content == message.end() || !content->is_array()) continue;
    for (const json& part : *content) {
      if (!is_image_part(part)) continue;
      const std::string url = url_of(part);
      const std::optional<std::string> bytes = images::data_url_bytes(url);
      if (!bytes) {
        return fmt::format("image {}: 'image_url.url' must be a base64 data URL", out.images);
      }
      const std::optional<images::ImageHeader> header = images::read_image_header(*bytes);
      if (!header) {
        return fmt::format("image {}: cannot identify the image (not a PNG or JPEG, or truncated)",
                           out.images);
      }
      out.tokens += patches(header->size.width, patch_px) * patches(header->size.height, patch_px);
      ++out.images;
    }
  }
  return out;
}

}  // namespace bench::sim
