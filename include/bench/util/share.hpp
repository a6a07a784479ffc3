#pragma once
// Sharing out a whole number: the one rule for a shard's share of the requests and the
// concurrency, a client thread's share of its shard's, and a chunk's share of a request's tokens.
// Header only, so the standard-library-only modules (metrics) use it without linking util.
#include <type_traits>

namespace bench::util {

/// Part `index`'s share of `total` split `parts` ways (parts >= 1): the first total % parts
/// parts take one more, as h2load shares out its clients and requests, so the shares add up to
/// `total` and differ by at most one.
template <typename Int>
constexpr Int share_of(Int total, Int parts, Int index) {
  static_assert(std::is_integral_v<Int>);
  return total / parts + (index < total % parts ? 1 : 0);
}

}  // namespace bench::util
