#pragma once
// The options every transfer slot's easy handle carries for its whole life (they persist
// across requests, so connections and settings are reused).
#include <curl/curl.h>

#include "bench/engine/engine.hpp"

namespace bench::engine {

void set_persistent_options(CURL* easy, const EngineOptions& options);

}  // namespace bench::engine
