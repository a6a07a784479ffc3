#pragma once
// What made this process's results (results/provenance.hpp): this build's version, commit and
// build type, the libcurl it loaded, and the host's CPU model and CPUs online.
#include <string>

#include "bench/results/provenance.hpp"

namespace bench::app {

/// Read once, on first call: none of it changes while bench runs.
const results::Provenance& this_build_and_host();

/// `bench --version`: the version, the commit and build type it was built from, and the libcurl
/// it runs on, from the same provenance its results record. The first line is "bench VERSION"
/// (help2man and packaging scripts read it).
std::string version_text();

}  // namespace bench::app
