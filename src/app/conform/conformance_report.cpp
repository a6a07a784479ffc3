#include "conformance_report.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "bench/app/plan/provenance.hpp"

namespace bench::app::conform {

namespace {

using Row = std::array<std::string, 4>;

Row row_of(const CheckResult& result) {
  return {std::string(result.check->name), std::string(result.check->relies_on),
          std::string(holds_name(result.verdict.holds)), result.verdict.detail};
}

std::string field(const std::optional<std::string>& value) { return value.value_or("unknown"); }

std::string bench_build() {
  const results::Provenance& build = this_build_and_host();
  return fmt::format("{} (commit {}, libcurl {})", build.bench_version, build.commit,
                     build.libcurl);
}

}  // namespace

void print_table(const std::vector<CheckResult>& results, std::ostream& out) {
  std::vector<Row> rows = {{"check", "what bench relies on", "verdict", "detail"}};
  for (const CheckResult& result : results) rows.push_back(row_of(result));
  std::array<std::size_t, 3> widths{};
  for (const Row& row : rows) {
    for (std::size_t column = 0; column < widths.size(); ++column) {
      widths[column] = std::max(widths[column], row[column].size());
    }
  }
  for (const Row& row : rows) {
    out << fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", row[0], widths[0], row[1], widths[1], row[2],
                       widths[2], row[3]);
  }
  std::array<std::size_t, 3> counts{};  // by Holds
  for (const CheckResult& result : results) {
    ++counts[static_cast<std::size_t>(result.verdict.holds)];
  }
  out << fmt::format("{} checks: {} hold, {} do not, {} not shown\n", results.size(),
                     counts[static_cast<std::size_t>(Holds::holds)],
                     counts[static_cast<std::size_t>(Holds::fails)],
                     counts[static_cast<std::size_t>(Holds::not_shown)]);
}

std::string source_md(const ArchiveFacts& facts, const std::vector<CheckResult>& results) {
  const ServerIdentity& identity = facts.identity;
  std::string text = fmt::format(
      "# bench conformance: {} {}, model {}\n\n"
      "Recorded by `bench conformance` through `bench record`'s proxy: every exchange of the "
      "battery below, its request with credentials redacted, the response's bytes with the time "
      "each read arrived, and how the server closed (docs/wire-corpus.md). A stream the battery "
      "dropped on purpose (closed connection) is not recorded.\n\n"
      "- server: {} (family {}, version {}, max_model_len {})\n"
      "- model: {}\n- bench: {}\n- date: {}\n- hardware, server command line: (add them)\n\n"
      "| check | what bench relies on | verdict | detail |\n|---|---|---|---|\n",
      field(identity.family), field(identity.version), facts.model, facts.server,
      field(identity.family), field(identity.version),
      identity.max_model_len ? std::to_string(*identity.max_model_len) : "unknown", facts.model,
      bench_build(), facts.date);
  for (const CheckResult& result : results) {
    std::string detail = result.verdict.detail;
    std::replace(detail.begin(), detail.end(), '|', '/');
    text += fmt::format("| {} | {} | {} | {} |\n", result.check->name, result.check->relies_on,
                        holds_name(result.verdict.holds), detail);
  }
  return text;
}

}  // namespace bench::app::conform
