#include "bench/engine/curl_error.hpp"

namespace bench::engine {

using metrics::ErrorClass;

ErrorClass classify_curl_result(CURLcode result, bool connected, bool got_body) {
  switch (result) {
    case CURLE_OK: return ErrorClass::none;
    case CURLE_COULDNT_CONNECT: return ErrorClass::connect_refused;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY: return ErrorClass::dns;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_SHUTDOWN_FAILED: return ErrorClass::tls;
    case CURLE_OPERATION_TIMEDOUT:
      // One curl code covers both timeouts; whether a connection exists tells them apart.
      return connected ? ErrorClass::request_timeout : ErrorClass::connect_timeout;
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2_STREAM:
      // The server ended the response early but in order (a FIN, an HTTP/2 stream reset).
      // After body bytes that is a cut stream.
      return got_body ? ErrorClass::truncated : ErrorClass::transport;
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
      // A socket error (ECONNRESET: the peer aborted the connection) is a transport failure
      // wherever it lands: whether curl was reading or still writing when the RST came is a
      // race, and the class must not depend on it.
      return ErrorClass::transport;
    default: return ErrorClass::transport;
  }
}

}  // namespace bench::engine
