# Cross-building bench for arm64 (aarch64, e.g. Grace hosts) on an amd64 Debian 12 with Debian's
# own cross toolchain and multiarch libraries; scripts/cross-arm64 installs them and uses this:
#   cmake -S . -B build-arm64 -G Ninja --toolchain cmake/toolchain-aarch64.cmake
# What the build runs of its own output (the completion, the man page, the tests) runs under
# qemu-user through scripts/run-arm64 (qemu-aarch64-static on the multiarch arm64 glibc).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Debian's multiarch layout: the arm64 -dev packages' libraries in /usr/lib/aarch64-linux-gnu,
# their headers in /usr/include (shared with amd64), CMake config files under either.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# The build's pkg-config reading the arm64 .pc files (Debian 12 ships no aarch64-linux-gnu-pkg-config
# wrapper for an amd64 host).
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
# A script, not qemu with options: the emulator is also passed through `cmake -P`
# (cmake/write_output.cmake), which would read qemu's -L as its own option.
get_filename_component(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/../scripts/run-arm64
                       ABSOLUTE)
set(BENCH_DEB_ARCHITECTURE arm64)
