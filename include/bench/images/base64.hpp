#pragma once
// Base64 (RFC 4648, section 4: the standard alphabet, '=' padding), as data URLs carry images.
#include <optional>
#include <string>
#include <string_view>

namespace bench::images {

std::string base64_encode(std::string_view bytes);
/// nullopt for any character outside the alphabet or a length that is not a multiple of 4.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace bench::images
