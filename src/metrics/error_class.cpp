#include "bench/metrics/error_class.hpp"

#include "bench/metrics/request_record.hpp"

namespace bench::metrics {

std::string_view error_class_name(ErrorClass error) {
  switch (error) {
    case ErrorClass::none: return "none";
    case ErrorClass::connect_refused: return "connect_refused";
    case ErrorClass::dns: return "dns";
    case ErrorClass::tls: return "tls";
    case ErrorClass::connect_timeout: return "connect_timeout";
    case ErrorClass::http_4xx: return "http_4xx";
    case ErrorClass::context_overflow: return "context_overflow";
    case ErrorClass::http_5xx: return "http_5xx";
    case ErrorClass::http_other: return "http_other";
    case ErrorClass::rate_limited: return "rate_limited";
    case ErrorClass::ttft_timeout: return "ttft_timeout";
    case ErrorClass::stall: return "stall";
    case ErrorClass::request_timeout: return "request_timeout";
    case ErrorClass::malformed_sse: return "malformed_sse";
    case ErrorClass::malformed_json: return "malformed_json";
    case ErrorClass::stream_error: return "stream_error";
    case ErrorClass::truncated: return "truncated";
    case ErrorClass::transport: return "transport";
    case ErrorClass::not_built: return "not_built";
    case ErrorClass::cancelled: return "cancelled";
  }
  return "unknown";
}

std::optional<ErrorClass> error_class_from_name(std::string_view name) {
  for (ErrorClass error : kAllErrorClasses) {
    if (error_class_name(error) == name) return error;
  }
  return std::nullopt;
}

std::string_view token_source_name(TokenSource source) {
  switch (source) {
    case TokenSource::none: return "none";
    case TokenSource::usage: return "usage";
    case TokenSource::tokenizer: return "tokenizer";
    case TokenSource::chunks: return "chunks_estimate";
  }
  return "unknown";
}

std::string_view token_sources_label(std::int64_t usage, std::int64_t tokenizer,
                                     std::int64_t chunks) {
  const int sources = (usage > 0 ? 1 : 0) + (tokenizer > 0 ? 1 : 0) + (chunks > 0 ? 1 : 0);
  if (sources > 1) return "mixed";
  if (tokenizer > 0) return token_source_name(TokenSource::tokenizer);
  if (chunks > 0) return token_source_name(TokenSource::chunks);
  return token_source_name(TokenSource::usage);
}

void count_token_source(TokenSource source, std::int64_t& usage, std::int64_t& tokenizer,
                        std::int64_t& chunks) {
  switch (source) {
    case TokenSource::usage: ++usage; break;
    case TokenSource::tokenizer: ++tokenizer; break;
    case TokenSource::chunks: ++chunks; break;
    case TokenSource::none: break;
  }
}

std::string_view cached_token_source_name(CachedTokenSource source) {
  switch (source) {
    case CachedTokenSource::none: return "none";
    case CachedTokenSource::usage_details: return "usage_details";
    case CachedTokenSource::timings_cache_n: return "timings_cache_n";
    case CachedTokenSource::timings_prompt_n: return "timings_prompt_n";
  }
  return "unknown";
}

}  // namespace bench::metrics
