#pragma once
// The Unicode data behind NFC (UAX #15), generated into nfc_tables.cpp by nfc_tables.py.
// Every table is sorted by its first field.
#include <cstdint>
#include <vector>

namespace bench::tokenizer::nfc {

struct CombiningClass {
  char32_t code_point;
  std::uint8_t value;  // canonical combining class, never 0 here
};
struct Decomposition {
  char32_t code_point;
  std::uint32_t offset;  // into kDecompositionPool: the full canonical decomposition
  std::uint32_t length;
};
struct Composition {
  char32_t first;
  char32_t second;
  char32_t composite;  // primary composites only (composition exclusions left out)
};
struct Range {
  char32_t first;
  char32_t last;
};

extern const std::vector<CombiningClass> kCombiningClasses;
extern const std::vector<char32_t> kDecompositionPool;
extern const std::vector<Decomposition> kDecompositions;
extern const std::vector<Composition> kCompositions;
/// Code points whose presence means NFC may change the text (NFC_QC No or Maybe, or a nonzero
/// combining class); text without any is already NFC.
extern const std::vector<Range> kMaybeChanged;

}  // namespace bench::tokenizer::nfc
