#pragma once
// What `bench conformance` says: the table on the terminal, and SOURCE.md in the archive (the
// file every recording of tests/data/wire holds, saying where its bytes came from). Private to
// src/app/conform.
#include <ostream>
#include <string>
#include <vector>

#include "bench/app/server/server_identity.hpp"
#include "conform_check.hpp"

namespace bench::app::conform {

/// check | what bench relies on | verdict | detail, one row per check, columns aligned.
void print_table(const std::vector<CheckResult>& results, std::ostream& out);

/// Where the archive came from and what it shows.
struct ArchiveFacts {
  ServerIdentity identity;
  std::string server;  // the URL as shown (no secret), or "the embedded simulator"
  std::string model;
  std::string date;  // UTC, ISO 8601
};

/// SOURCE.md: the server, bench's version, the date, each check's verdict and how to send it in.
std::string source_md(const ArchiveFacts& facts, const std::vector<CheckResult>& results);

}  // namespace bench::app::conform
