#include "bench/util/process_memory.hpp"

#include <unistd.h>

#include <cstdio>

namespace bench::util {

std::optional<std::int64_t> current_rss_bytes() {
  std::FILE* statm = std::fopen("/proc/self/statm", "r");
  if (statm == nullptr) return std::nullopt;
  long long size_pages = 0, resident_pages = 0;
  const int read = std::fscanf(statm, "%lld %lld", &size_pages, &resident_pages);
  std::fclose(statm);
  if (read != 2) return std::nullopt;
  return static_cast<std::int64_t>(resident_pages) * ::sysconf(_SC_PAGESIZE);
}

}  // namespace bench::util
