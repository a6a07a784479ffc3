#include "bench/tokenizer/nfc.hpp"

#include <algorithm>
#include <vector>

#include "bench/tokenizer/utf8.hpp"
#include "bench/util/utf8.hpp"
#include "nfc_tables.hpp"

namespace bench::tokenizer {
namespace {

// Hangul syllables decompose and compose by arithmetic (Unicode 15, section 3.12).
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr char32_t kLCount = 19, kVCount = 21, kTCount = 28, kNCount = kVCount * kTCount;
constexpr char32_t kSCount = kLCount * kNCount;

bool maybe_changed(char32_t code_point) {
  const auto& ranges = nfc::kMaybeChanged;
  auto it = std::upper_bound(ranges.begin(), ranges.end(), code_point,
                             [](char32_t cp, const nfc::Range& r) { return cp < r.first; });
  return it != ranges.begin() && code_point <= std::prev(it)->last;
}

std::uint8_t combining_class(char32_t code_point) {
  const auto& table = nfc::kCombiningClasses;
  auto it =
      std::lower_bound(table.begin(), table.end(), code_point,
                       [](const nfc::CombiningClass& c, char32_t cp) { return c.code_point < cp; });
  return it != table.end() && it->code_point == code_point ? it->value : 0;
}

void decompose(char32_t code_point, std::vector<char32_t>& out) {
  if (code_point >= kSBase && code_point < kSBase + kSCount) {
    const char32_t index = code_point - kSBase;
    out.push_back(kLBase + index / kNCount);
    out.push_back(kVBase + (index % kNCount) / kTCount);
    if (index % kTCount != 0) out.push_back(kTBase + index % kTCount);
    return;
  }
  const auto& table = nfc::kDecompositions;
  auto it =
      std::lower_bound(table.begin(), table.end(), code_point,
                       [](const nfc::Decomposition& d, char32_t cp) { return d.code_point < cp; });
  if (it == table.end() || it->code_point != code_point) {
    out.push_back(code_point);
    return;
  }
  const auto first = nfc::kDecompositionPool.begin() + it->offset;
  out.insert(out.end(), first, first + it->length);
}

// The primary composite of a starter and what follows it, or 0.
char32_t compose_pair(char32_t first, char32_t second) {
  if (first >= kLBase && first < kLBase + kLCount && second >= kVBase &&
      second < kVBase + kVCount) {
    return kSBase + ((first - kLBase) * kVCount + (second - kVBase)) * kTCount;
  }
  if (first >= kSBase && first < kSBase + kSCount && (first - kSBase) % kTCount == 0 &&
      second > kTBase && second < kTBase + kTCount) {
    return first + (second - kTBase);
  }
  const auto& table = nfc::kCompositions;
  auto it = std::lower_bound(table.begin(), table.end(), std::pair(first, second),
                             [](const nfc::Composition& c, std::pair<char32_t, char32_t> key) {
                               return std::pair(c.first, c.second) < key;
                             });
  return it != table.end() && it->first == first && it->second == second ? it->composite : 0;
}

// Canonical ordering: a stable sort of each run of non-starters by combining class.
void reorder(std::vector<char32_t>& code_points) {
  for (std::size_t at = 0; at < code_points.size();) {
    if (combining_class(code_points[at]) == 0) {
      ++at;
      continue;
    }
    std::size_t end = at;
    while (end < code_points.size() && combining_class(code_points[end]) != 0) ++end;
    std::stable_sort(
        code_points.begin() + static_cast<std::ptrdiff_t>(at),
        code_points.begin() + static_cast<std::ptrdiff_t>(end),
        [](char32_t a, char32_t b) { return combining_class(a) < combining_class(b); });
    at = end;
  }
}

// The canonical composition algorithm (UAX #15, section 1.3; the sample code of its
// "Detailed Description"): a character joins the last starter unless something between them
// blocks it (a kept character of the same or a higher combining class, or any starter).
void compose(std::vector<char32_t>& code_points) {
  if (code_points.empty()) return;
  std::size_t starter = 0;
  int last_class = combining_class(code_points[0]) == 0 ? 0 : 256;  // 256: no starter yet
  std::size_t kept = 1;
  for (std::size_t at = 1; at < code_points.size(); ++at) {
    const char32_t code_point = code_points[at];
    const int this_class = combining_class(code_point);
    const char32_t composite = compose_pair(code_points[starter], code_point);
    if (composite != 0 && (last_class < this_class || last_class == 0) &&
        combining_class(code_points[starter]) == 0) {
      code_points[starter] = composite;
      continue;
    }
    if (this_class == 0) starter = kept;
    last_class = this_class;
    code_points[kept++] = code_point;
  }
  code_points.resize(kept);
}

}  // namespace

std::string to_nfc(std::string_view text) {
  std::vector<char32_t> code_points;
  code_points.reserve(text.size());
  bool changes = false;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = util::utf8_sequence_length(text, at);
    const char32_t code_point = length == 0 ? 0xFFFD : utf8::decode_at(text, at, length);
    // Below U+0300 nothing decomposes and nothing combines with what precedes it.
    if (code_point >= 0x300 && maybe_changed(code_point)) changes = true;
    code_points.push_back(code_point);
    at += length == 0 ? 1 : length;
  }
  if (!changes) return std::string(text);
  std::vector<char32_t> decomposed;
  decomposed.reserve(code_points.size() * 2);
  for (char32_t code_point : code_points) decompose(code_point, decomposed);
  reorder(decomposed);
  compose(decomposed);
  std::string out;
  out.reserve(text.size());
  for (char32_t code_point : decomposed) utf8::append(out, code_point);
  return out;
}

}  // namespace bench::tokenizer
