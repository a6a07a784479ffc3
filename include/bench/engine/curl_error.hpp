#pragma once
// Maps how libcurl ended a transfer to bench's error classes.
#include <curl/curl.h>

#include "bench/metrics/error_class.hpp"

namespace bench::engine {

/// `connected`: a connection to the server was established; `got_body`: at least one body byte
/// arrived (a response the server ended early after that is truncated; a socket error such as
/// a connection reset stays a transport failure).
metrics::ErrorClass classify_curl_result(CURLcode result, bool connected, bool got_body);

}  // namespace bench::engine
