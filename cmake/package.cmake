# The Debian package (scripts/package, or `cpack -G DEB` in the build directory after building
# everything): bench_VERSION_ARCH.deb holding what cmake/install.cmake installs, under /usr.
# Its Depends come from dpkg-shlibdeps on the binary, so they name exactly the libraries bench
# links (libcurl4, libfmt9, libpcre2-8-0, libturbojpeg0, libpng16-16, the C and C++ runtimes) at the versions it needs.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME bench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "load generator for OpenAI-compatible LLM inference servers")
set(CPACK_PACKAGE_DESCRIPTION
    "bench streams completions at a chosen concurrency or arrival rate and reports output, \
input and total token throughput separately, each labelled with its kind, with TTFT, ITL, TPOT \
and end-to-end latency percentiles. It embeds a simulated server to try it without one.")
set(CPACK_PACKAGE_CONTACT "bench maintainers <bench@localhost>")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # bench_VERSION_ARCH.deb, Debian's own naming
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# A cross build packages for its target (cmake/toolchain-aarch64.cmake sets arm64); dpkg-shlibdeps
# then reads the target's libraries from the multiarch paths.
if(BENCH_DEB_ARCHITECTURE)
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${BENCH_DEB_ARCHITECTURE})
endif()
# RelWithDebInfo's debug info stays in the build tree: the package ships stripped binaries.
set(CPACK_STRIP_FILES ON)
include(CPack)
