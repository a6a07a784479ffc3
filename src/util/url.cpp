#include "bench/util/url.hpp"

#include <algorithm>

namespace bench::util {

std::string url_join(std::string_view base, std::string_view path) {
  const std::size_t query = std::min(base.find_first_of("?#"), base.size());
  std::string joined(base.substr(0, query));
  joined += path;
  joined += base.substr(query);
  return joined;
}

}  // namespace bench::util
