#pragma once
// --flush-cache: the server's prefix cache emptied before each run or sweep point (and so
// before its warm-up), so no point is measured on prompts an earlier one left cached. The way
// is found once, in this order:
//   POST /flush_cache         SGLang
//   POST /reset_prefix_cache  vLLM, served only in its development mode (VLLM_SERVER_DEV_MODE=1)
//   llama.cpp (GET /props, or GET /v1/models owned by "llamacpp"): no flush endpoint, but a
//                             request with "cache_prompt": false is prefilled whole
// and said once on stderr. It never fails the run: a server with no way, or a flush that
// errors, is said once and the run goes on.
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "bench/engine/engine.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/util/redact.hpp"

namespace bench::app {

enum class FlushMethod { flush_cache, reset_prefix_cache, cache_prompt_false, unavailable };

/// "flush_cache", "reset_prefix_cache", "cache_prompt_false", "unavailable": the results'
/// "prefix_cache_flush" (results/workload.hpp).
std::string_view flush_method_name(FlushMethod method);

/// The server asked, and how: the run's own headers (its API key included) and engine limits.
struct FlushServer {
  std::string base_url;
  const std::vector<std::string>* headers = nullptr;
  engine::EngineOptions engine;
  const util::Redactor* redactor = nullptr;
};

class CacheFlush {
 public:
  /// Finds the server's way and says it on `err` (with `quiet`, only when there is none).
  /// Finding it by a flush empties the cache: the first point's flush is done. Sets "cache_prompt":
  /// false in `request`'s extra body for llama.cpp, unless the user's extra body already sets
  /// cache_prompt.
  CacheFlush(FlushServer server, protocol::RequestOptions& request, std::ostream& err, bool quiet);

  FlushMethod method() const { return method_; }

  /// Before each point: empties the cache again (the first call has nothing left to do). A
  /// flush that fails is said once; the run goes on.
  void before_point(std::ostream& err);

 private:
  bool post(std::string_view path, std::string* failure) const;
  bool is_llama_cpp() const;

  FlushServer server_;
  FlushMethod method_ = FlushMethod::unavailable;
  bool first_point_ = true;
  bool failure_said_ = false;
};

}  // namespace bench::app
