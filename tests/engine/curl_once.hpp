#pragma once
// libcurl's global set-up for the whole test program, made before any test makes a handle.
// Inline, so every engine test file can include it and the program still holds one.
#include "bench/engine/curl_handles.hpp"

namespace bench_test {

inline const bench::engine::CurlGlobal kCurl;

}  // namespace bench_test
