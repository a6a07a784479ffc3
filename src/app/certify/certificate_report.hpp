#pragma once
// The client-error certificate as text (one short block) and as the `client_error` JSON object
// (docs/results-format.md).
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/metrics/client_error.hpp"

namespace bench::app {

struct Certificate {
  metrics::ClientError error;
  double share = 0.05;               // a bound over this share of its figure is flagged
  std::int64_t client_requests = 0;  // streamed, completed, measured requests in the request log
  std::int64_t truth_requests = 0;   // request lines in the truth log
  bool twin = false;                 // the requests are a loopback twin's replay of the run
};

std::string certificate_text(const Certificate& certificate);
nlohmann::json certificate_json(const Certificate& certificate);

}  // namespace bench::app
