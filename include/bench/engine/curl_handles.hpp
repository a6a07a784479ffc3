#pragma once
// RAII owners for libcurl handles. Each owns exactly one handle and frees it once.
#include <curl/curl.h>

#include <memory>
#include <string>
#include <vector>

namespace bench::engine {

struct EasyDeleter {
  void operator()(CURL* easy) const { curl_easy_cleanup(easy); }
};
struct MultiDeleter {
  void operator()(CURLM* multi) const { curl_multi_cleanup(multi); }
};
struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
// Frees one line put ahead of a list it does not own: the rest stays for its owner.
struct PrependedLineDeleter {
  void operator()(curl_slist* line) const {
    line->next = nullptr;
    curl_slist_free_all(line);
  }
};

using EasyHandle = std::unique_ptr<CURL, EasyDeleter>;
using MultiHandle = std::unique_ptr<CURLM, MultiDeleter>;
using HeaderList = std::unique_ptr<curl_slist, SlistDeleter>;
using PrependedLine = std::unique_ptr<curl_slist, PrependedLineDeleter>;

/// Builds a curl header list from "Name: value" lines. Throws std::bad_alloc on failure.
HeaderList make_header_list(const std::vector<std::string>& lines);

/// `line` ahead of `shared` (not owned; it must outlive the result's use): a request's own header
/// (its traceparent) in front of the lines every request shares, without copying them. curl's
/// list node is a public struct, so the new node's `next` is simply the shared head. Throws
/// std::bad_alloc on failure.
PrependedLine prepend_header_line(const std::string& line, curl_slist* shared);

/// curl_global_init for the process lifetime: construct one in main() before any thread.
class CurlGlobal {
 public:
  CurlGlobal();
  ~CurlGlobal();
  CurlGlobal(const CurlGlobal&) = delete;
  CurlGlobal& operator=(const CurlGlobal&) = delete;
};

}  // namespace bench::engine
