#pragma once
// How the simulated model counts the tokens of the images in a chat request: an image of
// W x H pixels is ceil(W/P) x ceil(H/P) patches, one token each (P: --image-patch-px, default
// 14). That is a vision transformer's patch grid at the image's own size: 14-pixel patches are
// CLIP ViT-L/14's (LLaVA-1.5: 336/14 = 24, 576 tokens an image), SigLIP-so400m/14's and
// InternViT's; Qwen2-VL and Qwen2.5-VL cut 14-pixel patches and merge 2 x 2 of them into one
// token (P = 28 stands for that). Real servers also resize or tile an image first (LLaVA to
// 336 x 336, Qwen2-VL within min/max pixels): this rule keeps the size as sent, so that two
// sizes differ by a count a test can predict.
//
// The size comes from the image's own header (a PNG's IHDR, a JPEG's start of frame), as a
// server's decoder would find it; an image_url part that is not a base64 data URL of a PNG or
// JPEG is refused with a 400, as vLLM refuses an image it cannot decode (vllm-project/vllm
// pull 38253: corrupt or truncated images are a 400, not a 500).
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

namespace bench::sim {

struct ImageTokens {
  std::int64_t images = 0;
  std::int64_t tokens = 0;
};

/// The image tokens of every image_url part of `messages` by the patch rule, or why a part is
/// refused (the 400's message).
std::variant<ImageTokens, std::string> count_image_tokens(const nlohmann::json& messages,
                                                          std::int64_t patch_px);

/// The image of one content part, as the prefix cache keys it: its tokens by the patch rule and
/// a hash of its bytes (FNV-1a 64; vLLM keys an image by a hash of its data, its mm_hash).
struct PartImage {
  std::int64_t tokens = 0;
  std::uint64_t bytes_hash = 0;
};

/// nullopt for a part that is not an image_url part of a base64 PNG or JPEG.
std::optional<PartImage> image_of_part(const nlohmann::json& part, std::int64_t patch_px);

}  // namespace bench::sim
