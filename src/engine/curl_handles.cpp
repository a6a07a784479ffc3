#include "bench/engine/curl_handles.hpp"

#include <new>
#include <stdexcept>

namespace bench::engine {

HeaderList make_header_list(const std::vector<std::string>& lines) {
  HeaderList list;
  for (const std::string& line : lines) {
    curl_slist* grown = curl_slist_append(list.get(), line.c_str());
    if (grown == nullptr) throw std::bad_alloc();
    (void)list.release();  // curl_slist_append returned the same list head, now owned by grown
    list.reset(grown);
  }
  return list;
}

PrependedLine prepend_header_line(const std::string& line, curl_slist* shared) {
  curl_slist* node = curl_slist_append(nullptr, line.c_str());
  if (node == nullptr) throw std::bad_alloc();
  node->next = shared;
  return PrependedLine(node);
}

CurlGlobal::CurlGlobal() {
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    throw std::runtime_error("curl_global_init failed");
  }
}

CurlGlobal::~CurlGlobal() { curl_global_cleanup(); }

}  // namespace bench::engine
