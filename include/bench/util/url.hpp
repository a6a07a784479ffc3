#pragma once
// Request URLs made from a server's base URL (--base-url) and a route.
#include <string>
#include <string_view>

namespace bench::util {

/// `base` with `path` appended to its path, before its query and fragment:
/// "http://h/v1?api-version=1" and "/models" make "http://h/v1/models?api-version=1", so a
/// base URL that carries a query (a version, a key) keeps it on every request.
std::string url_join(std::string_view base, std::string_view path);

}  // namespace bench::util
