#pragma once
// The readers of server JSON that the endpoints' units share (defined in openai.cpp): counts,
// strings and error messages as servers send them, a report-safe excerpt of raw bytes, and a
// whole response body's object.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "bench/protocol/openai.hpp"

namespace bench::protocol::server_json {

/// At most 200 bytes of `raw`, valid UTF-8 with control characters as spaces.
std::string excerpt(std::string_view raw);

/// A token count: a non-negative integer (or an integral float); nullopt otherwise.
std::optional<std::int64_t> count_field(const nlohmann::json& object, const char* key);

/// The string under `key`, or null when absent or not a string.
const std::string* string_field(const nlohmann::json& object, const char* key);

/// The message of an OpenAI-style error value: {"message": ...}, or a bare string, or the value
/// itself shortened.
std::string message_of_error(const nlohmann::json& error);

/// The JSON object of a whole (non-streamed) response body, `chunk` reset; or nullopt with
/// chunk.kind and error_message saying why not: truncated when the JSON ends before it is
/// complete (an empty body too), malformed when it is not JSON or not an object, error when it
/// is an error object ({"error": ...}).
std::optional<nlohmann::json> whole_body_object(std::string_view body, Chunk& chunk);

}  // namespace bench::protocol::server_json
