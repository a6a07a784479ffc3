#pragma once
// The one way the trace recorder hashes what it must compare but never keep (a prompt's
// prefixes, a message list, a session header's value): a chain of 64-bit steps seeded by the
// recording's salt, so the hashes say nothing outside the recording. Private to src/record.
#include <cstdint>
#include <string_view>

#include "bench/util/fnv1a.hpp"
#include "bench/util/splitmix64.hpp"

namespace bench::record {

/// The start of a chain: the salt, spread.
inline std::uint64_t chain_start(std::uint64_t salt) { return util::splitmix64_mix(salt); }

/// One step: the hash of everything so far and the next piece.
inline std::uint64_t chain(std::uint64_t so_far, std::uint64_t piece) {
  return util::splitmix64_mix(so_far ^ util::splitmix64_mix(piece + util::kGoldenGamma));
}

/// A piece of text as a step's piece (FNV-1a: stable, not keyed; the chain's salt keys it).
inline std::uint64_t text_hash(std::string_view text) {
  util::Fnv1a64 hash;
  hash.add(text);
  return hash.value();
}

}  // namespace bench::record
