#include "easy_options.hpp"

namespace bench::engine {

void set_persistent_options(CURL* easy, const EngineOptions& options) {
  // Several threads may run engines; signals must not be used for timeouts (libcurl-thread).
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
  curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connect_timeout_ms));
  curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(options.request_timeout_ms));
  // Bytes reach the parser as they arrive; never ask for compressed bodies.
  curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, nullptr);
  if (options.insecure) {
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if (!options.cacert_path.empty()) {
    curl_easy_setopt(easy, CURLOPT_CAINFO, options.cacert_path.c_str());
  }
}

}  // namespace bench::engine
