#include "bench/cli/prefix_share_flag.hpp"

#include <fmt/format.h>

#include "bench/cli/values.hpp"
#include "bench/util/text.hpp"
#include "bench/workload/prefix_share.hpp"

namespace bench::cli {

namespace {

std::vector<double> parse_shares(const std::string& text) {
  std::vector<double> shares;
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view part = rest.substr(0, comma);
    const std::optional<double> share = util::parse_finite_double(part);
    if (!share || *share < 0 || *share >= 1) {
      throw UsageError(fmt::format(
          "--prefix-share: '{}' is not a share from 0 to below 1 (e.g. 0.5 or 0,0.5,0.9)", part));
    }
    shares.push_back(*share);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return shares;
}

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
  run.dataset.prefix_shares = parse_shares(raw);
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
