#include "certificate_report.hpp"

#include <array>
#include <optional>
#include <utility>

#include <fmt/format.h>

namespace bench::app {

namespace {

using nlohmann::json;
using Stats = std::optional<metrics::ErrorStats>;

// The figures in the order they are shown, by the names the results keys use.
std::array<std::pair<const char*, const Stats*>, 4> figures(const metrics::ClientError& e) {
  return {{{"ttft", &e.ttft}, {"itl", &e.itl}, {"tpot", &e.tpot}, {"e2e", &e.e2e}}};
}

const char* shown_name(const std::string& key) {
  if (key == "ttft") return "TTFT";
  if (key == "itl") return "ITL";
  if (key == "tpot") return "TPOT";
  return "E2E";
}

bool flagged(const metrics::ErrorStats& s, double share) {
  return metrics::bound_exceeds_share(s.p99_ms, s.figure_p99_ms, share);
}

}  // namespace

std::string certificate_text(const Certificate& c) {
  std::string out = fmt::format(
      "Client error ({}'s request log joined to its server's truth log by response id: {} of {} "
      "requests):\n",
      c.twin ? "the twin's replay" : "this run", c.error.joined, c.client_requests);
  std::vector<std::string> warnings;
  for (const auto& [key, stats] : figures(c.error)) {
    if (!*stats) {
      out += fmt::format("  {:<5} none (no joined request gives one)\n", shown_name(key));
      continue;
    }
    const metrics::ErrorStats& s = **stats;
    out += fmt::format(
        "  {:<5} p99 {:.3f} ms (client error <= {:.3f} ms at p99, {:.3f} ms median, {:.3f} ms "
        "worst; {} values)\n",
        shown_name(key), s.figure_p99_ms, s.p99_ms, s.p50_ms, s.max_ms, s.count);
    if (flagged(s, c.share)) {
      warnings.push_back(fmt::format(
          "warning: the client's {} error at p99 ({:.3f} ms) is over {:.0f}% of the figure "
          "({:.3f} ms): the client bends what it measures",
          shown_name(key), s.p99_ms, c.share * 100, s.figure_p99_ms));
    }
  }
  if (c.error.client_only > 0) {
    out += fmt::format("  {} requests are not in the truth log: left out\n", c.error.client_only);
  }
  if (c.error.chunk_mismatch > 0) {
    out += fmt::format("  {} requests saw another number of chunks than were sent: no ITL\n",
                       c.error.chunk_mismatch);
  }
  out +=
      "  The server's side is when it handed each byte to its socket: the bound holds this "
      "host's kernel path and the client, not a network, TLS or a remote NIC.\n";
  for (const std::string& warning : warnings) out += warning + "\n";
  return out;
}

json certificate_json(const Certificate& c) {
  json out = {{"estimate",
               "client minus server time per request, against the server's truth log on this "
               "host"},
              {"requests_joined", c.error.joined},
              {"requests_in_log", c.client_requests},
              {"requests_in_truth", c.truth_requests},
              {"requests_not_in_truth", c.error.client_only},
              {"requests_chunk_mismatch", c.error.chunk_mismatch},
              {"max_error_share", c.share}};
  bool any_flagged = false;
  for (const auto& [key, stats] : figures(c.error)) {
    const std::string prefix = std::string(key) + "_client_error_";
    if (!*stats) {
      for (const char* stat : {"p50_ms", "p99_ms", "max_ms"}) out[prefix + stat] = nullptr;
      out[std::string(key) + "_p99_ms"] = nullptr;
      continue;
    }
    const metrics::ErrorStats& s = **stats;
    out[prefix + "p50_ms"] = s.p50_ms;
    out[prefix + "p99_ms"] = s.p99_ms;
    out[prefix + "max_ms"] = s.max_ms;
    out[std::string(key) + "_p99_ms"] = s.figure_p99_ms;
    out[prefix + "count"] = s.count;
    any_flagged = any_flagged || flagged(s, c.share);
  }
  out["over_share"] = any_flagged;
  return out;
}

}  // namespace bench::app
