#pragma once
// The battery's checks of the side routes bench reads beside the load: /tokenize (the server's
// tokenizer) and /metrics (its Prometheus counters). Private to src/app/conform.
#include "conform_check.hpp"

namespace bench::app::conform {

Verdict check_tokenize(const ConformServer& server);
Verdict check_metrics(const ConformServer& server);

}  // namespace bench::app::conform
