#pragma once
// What every endpoint's request body shares (private to src/protocol; defined in openai.cpp):
// the fields every unit sets alike, the user's --extra-body merged last, and the body written.
#include <string>

#include <nlohmann/json.hpp>

#include "bench/protocol/openai.hpp"

namespace bench::protocol::request_body {

/// "model", the output cap under the endpoint's name for it (`max_tokens_key`), "stream"; and
/// "ignore_eos" and "temperature" when asked.
void add_common(const RequestOptions& options, nlohmann::json& body, const char* max_tokens_key);

/// extra_body merged over the body, RFC 7386: its keys override ours, null removes one, objects
/// merge recursively. A non-object patch would replace the whole body, which is never meant: it
/// is not applied.
void merge_extra(const RequestOptions& options, nlohmann::json& body);

/// The body as sent: a prompt with invalid UTF-8 goes with U+FFFD in its place, not a throw.
std::string written(const nlohmann::json& body);

}  // namespace bench::protocol::request_body
