#include "bench/metrics/input_split.hpp"

namespace bench::metrics {

std::string_view cache_disclosure_name(CacheDisclosure disclosure) {
  switch (disclosure) {
    case CacheDisclosure::none: return "none";
    case CacheDisclosure::some: return "some";
    case CacheDisclosure::all: return "all";
  }
  return "unknown";
}

void InputTokenSplit::add(const RequestRecord& record) {
  if (!record.ok() || record.prompt_tokens < 0) return;
  ++requests;
  const std::int64_t computed = record.computed_prompt_tokens();
  if (computed < 0) {
    unknown_split_tokens += record.prompt_tokens;
    return;
  }
  ++disclosing_requests;
  computed_tokens += computed;
  cached_tokens += record.cached_prompt_tokens;
}

CacheDisclosure InputTokenSplit::disclosure() const {
  if (disclosing_requests == 0) return CacheDisclosure::none;
  return disclosing_requests == requests ? CacheDisclosure::all : CacheDisclosure::some;
}

}  // namespace bench::metrics
