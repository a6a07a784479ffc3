#include "bench/cli/prefix_share_flag.hpp"

#include <fmt/format.h>

#include "bench/cli/values.hpp"
#include "bench/workload/prefix_share.hpp"

namespace bench::cli {

namespace {

// What the shares cannot be combined with: they shape random prompts, one share a point.
void refuse_conflicts(const CLI::App& app, const RunOptions& run) {
  if (run.dataset.kind != workload::DatasetKind::random) {
    throw UsageError(fmt::format(
        "--prefix-share: only with --dataset random (--dataset {} brings its own prompts; "
        "shared-prefix has --prefix-len)",
        workload::dataset_kind_name(run.dataset.kind)));
  }
  if (app.count("--reuse-prompts") > 0) {
    throw UsageError(
        "--prefix-share: not with --reuse-prompts (each point's prompts share its own system "
        "prompt; resent prompts would be cached whole)");
  }
  if (run.dataset.prefix_shares.size() > 1 &&
      (run.concurrency.size() > 1 || run.request_rates.size() > 1)) {
    throw UsageError(
        "--prefix-share: a list sweeps the share; give a single --concurrency and "
        "--request-rate (one sweep variable at a time)");
  }
}

}  // namespace

void add_prefix_share_flag(CLI::App& app, std::string& raw) {
  app.add_option("--prefix-share", raw,
                 "random: this share of each prompt's --input-len is a system prompt every "
                 "request of the point sends (the cache-hit share a warm prefix cache gives; "
                 "the server's cached share is shown beside). A list (0,0.5,0.9) sweeps it");
}

void finish_prefix_share_flag(const CLI::App& app, RunOptions& run, const std::string& raw) {
  if (app.count("--prefix-share") == 0) return;
  run.dataset.prefix_shares = parse_share_list("--prefix-share", raw);
  refuse_conflicts(app, run);
  for (const double share : run.dataset.prefix_shares) {
    if (workload::shared_prefix_len(share, run.input_len) >= run.input_len) {
      throw UsageError(
          fmt::format("--prefix-share: {:g} of --input-len {} leaves no text of a prompt's own",
                      share, run.input_len));
    }
  }
}

}  // namespace bench::cli
