#pragma once
// Base64 (RFC 4648, section 4: the standard alphabet, '=' padding), as data URLs carry images.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace bench::images {

std::string base64_encode(std::string_view bytes);
/// Appends the encoding of `bytes` to `out`. Pieces of a multiple of 3 bytes appended one after
/// another encode as the whole would (no padding but after the last piece), so a file can be
/// encoded as it is read.
void base64_append(std::string_view bytes, std::string& out);
/// The encoded length of `bytes` bytes.
constexpr std::size_t base64_size(std::size_t bytes) { return (bytes + 2) / 3 * 4; }
/// nullopt for any character outside the alphabet or a length that is not a multiple of 4.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace bench::images
