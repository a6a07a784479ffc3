#pragma once
// A host's IPv4 address, resolved once before the proxy listens. Private to src/record.
#include <netinet/in.h>

#include <string>
#include <variant>

namespace bench::record {

/// The IPv4 address of `host` (a name or a dotted quad); the resolver's message otherwise.
std::variant<in_addr, std::string> resolve(const std::string& host);

}  // namespace bench::record
