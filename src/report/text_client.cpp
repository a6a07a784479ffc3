// The text report's client section: what bench's own process did (CPU, event loops,
// connections), the self-check's verdicts, and what made the results.
#include <optional>
#include <string>

#include <fmt/format.h>

#include "bench/util/clock.hpp"
#include "text_writer.hpp"

namespace bench::report::text {

using metrics::RunSummary;
using results::ClientCheck;

namespace {

// The self-check's two verdicts, each in its own words (app/client_verdict.hpp): the client's
// own work, and its host, are different causes with different cures.
void write_verdicts(Writer& w, const ClientCheck& check) {
  if (check.saturated) {
    w.text(
        "Self-check: the client was the bottleneck (client_saturated): its own work kept an "
        "event loop busy, and these figures may carry its delay.");
  }
  if (check.host_late) {
    w.text(
        "Self-check: its host ran the client late (host_late): a busy or virtual machine, "
        "not the client's work; these figures may carry the host's delay.");
  }
  if (check.saturated || check.host_late) return;
  w.text(
      check.warnings.empty()
          ? "Self-check: the client kept up; it did not bias these figures."
          : "Self-check: the client's own work kept up; the warning(s) above say what was late.");
}

}  // namespace

void write_client(Writer& w, const RunSummary& s, const ClientCheck& check) {
  const metrics::ClientLoad& client = check.load;
  w.rule("Client", '-');
  const std::optional<double> per_1k = client.cpu_ms_per_1k_output_tokens(s.total_output_tokens);
  w.field("CPU",
          fmt::format("{:.2f} s over {:.2f} s on {} event loop(s), busiest {:.0f}%{}", client.cpu_s,
                      client.wall_s, client.threads, client.busiest_thread_utilization * 100,
                      per_1k ? fmt::format(", {:.3f} ms per 1,000 output tokens", *per_1k)
                             : std::string()));
  if (!client.threads_reason.empty()) w.field("Event loops", client.threads_reason);
  if (client.preconnect_requested > 0) {
    w.field("Pre-opened", fmt::format("{} of {} connection(s) in {:.1f} ms before the run{} "
                                      "(in no figure above)",
                                      client.preconnect_opened, client.preconnect_requested,
                                      s_to_ms(client.preconnect_s),
                                      client.preconnect_failed > 0
                                          ? fmt::format(", {} failed", client.preconnect_failed)
                                          : std::string()));
  }
  if (client.reuse_stopped()) {
    w.field(
        "Connection reuse",
        fmt::format("stopped: the server closed {} connections in a row at most {:.2f} ms "
                    "after their response (as llama.cpp does), so each later request "
                    "opened its own",
                    client.reuse_stopped_after_closes, ns_to_ms(client.reuse_stopped_close_ns)));
  }
  for (const std::string& warning : check.warnings) w.text("WARNING: " + warning);
  write_verdicts(w, check);
}

// What made the results (results/provenance.hpp), on one line; none for a file without it.
void write_provenance(Writer& w, const nlohmann::json& provenance) {
  if (!provenance.is_object()) return;
  auto item = [&provenance](const char* key) {
    const nlohmann::json value = provenance.value(key, nlohmann::json());
    if (value.is_string()) return value.get<std::string>();
    return value.is_null() ? std::string("unknown") : value.dump();
  };
  w.field("Made by", fmt::format("bench {} ({}, {}), libcurl {}; {} CPU(s), {}",
                                 item("bench_version"), item("commit"), item("build_type"),
                                 item("libcurl"), item("cpus_online"), item("cpu_model")));
}

}  // namespace bench::report::text
