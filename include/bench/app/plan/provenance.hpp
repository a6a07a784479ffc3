#pragma once
// What made this process's results (results/provenance.hpp): this build's version, commit and
// build type, the libcurl it loaded, and the host's CPU model and CPUs online.
#include "bench/results/provenance.hpp"

namespace bench::app {

/// Read once, on first call: none of it changes while bench runs.
const results::Provenance& this_build_and_host();

}  // namespace bench::app
