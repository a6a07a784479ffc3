#pragma once
// FNV-1a, 64 bits (http://www.isthe.com/chongo/tech/comp/fnv/): a small, stable hash for
// fingerprints that must read the same on every machine and every bench build. Not for
// anything an adversary chooses to collide.
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace bench::util {

class Fnv1a64 {
 public:
  void add(std::string_view bytes) {
    for (const char byte : bytes) {
      hash_ ^= static_cast<unsigned char>(byte);
      hash_ *= 0x100000001b3ULL;  // the 64-bit FNV prime
    }
  }
  std::uint64_t value() const { return hash_; }
  /// 16 lowercase hex digits.
  std::string hex() const { return fmt::format("{:016x}", hash_); }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;  // the 64-bit offset basis
};

}  // namespace bench::util
