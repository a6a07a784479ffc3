#include "bench/app/plan/provenance.hpp"

#include <unistd.h>

#include <fstream>
#include <string>

#include <fmt/format.h>

#include <curl/curl.h>

#include "bench_build_info.hpp"

namespace bench::app {

namespace {

// libcurl as loaded at run time (curl_version_info,
// https://curl.se/libcurl/c/curl_version_info.html), which a shared library upgrade can change
// under the same bench binary.
std::string loaded_libcurl() {
  const curl_version_info_data* info = curl_version_info(CURLVERSION_NOW);
  return info != nullptr && info->version != nullptr ? info->version : "unknown";
}

// The first "model name" of /proc/cpuinfo (x86; other architectures may not have one).
std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    const std::size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "unknown" : line.substr(start);
  }
  return "unknown";
}

results::Provenance read_provenance() {
  results::Provenance provenance;
  provenance.bench_version = BENCH_VERSION;
  provenance.commit = build_info::kCommit;
  provenance.build_type = build_info::kBuildType;
  provenance.libcurl = loaded_libcurl();
  provenance.cpu_model = cpu_model();
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (online > 0) provenance.cpus_online = online;
  return provenance;
}

}  // namespace

const results::Provenance& this_build_and_host() {
  static const results::Provenance provenance = read_provenance();
  return provenance;
}

std::string version_text() {
  const results::Provenance& made = this_build_and_host();
  return fmt::format("bench {}\ncommit {} ({} build)\nlibcurl {} (loaded at run time)\n",
                     made.bench_version, made.commit, made.build_type, made.libcurl);
}

}  // namespace bench::app
