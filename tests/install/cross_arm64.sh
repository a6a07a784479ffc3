#!/usr/bin/env bash
# bench for arm64 (aarch64, e.g. Grace hosts), cross-built on amd64 with Debian's cross toolchain
# (cmake/toolchain-aarch64.cmake) into BUILD_DIR, then run under qemu-user: its --version, a
# short benchmark against its embedded server, and the unit tests of the modules with no
# network (sse, metrics); then packed as bench_VERSION_arm64.deb with arm64 Depends. Skipped
# (exit 77) where the toolchain is absent: scripts/cross-arm64 installs it and runs this.
#   cross_arm64.sh BUILD_DIR
set -euo pipefail
build=$1
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "cross_arm64: $*" >&2; exit 1; }
skip() {
  echo "skipped: $* (scripts/cross-arm64 installs the arm64 cross toolchain, qemu-user-static and the arm64 libraries)" >&2
  exit 77
}
command -v aarch64-linux-gnu-g++ >/dev/null || skip "no aarch64-linux-gnu-g++"
command -v qemu-aarch64-static >/dev/null || skip "no qemu-aarch64-static"
for package in libcurl4-openssl-dev:arm64 libfmt-dev:arm64 libpcre2-dev:arm64 libcpp-httplib-dev:arm64 libturbojpeg0-dev:arm64 libpng-dev:arm64 libgtest-dev:arm64; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' \
    || skip "no $package"
done

cmake -S "$source_dir" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  --toolchain "$source_dir/cmake/toolchain-aarch64.cmake" >/dev/null
cmake --build "$build" -j "$(nproc)" --target bench bench_completion bench_man sse_parser_test \
  metrics_test
file -L "$build/bench" | grep -q 'ARM aarch64' || fail "not an aarch64 binary: $(file -L "$build/bench")"

# Bounded: a hang under qemu-user fails the check instead of holding it.
emulate() { timeout -s KILL 120 "$source_dir/scripts/run-arm64" "$@"; }
version=$(emulate "$build/bench" --version)
grep -qx "bench [0-9][0-9.]*" <<<"${version%%$'\n'*}" || fail "--version: $version"
grep -q '^libcurl [0-9]' <<<"$version" || fail "--version names no libcurl: $version"
# Three threads beside the engine's (the embedded server's loop, the live publisher, and
# cpp-httplib's listener for --metrics-listen): the first pthread_create is where a loader and a
# libc from different glibc builds once hung (scripts/run-arm64 says why).
results=$(emulate "$build/bench" --num-prompts 8 --concurrency 2 --input-len 16 --output-len 4 \
  --ignore-eos --quiet --output-format json --metrics-listen 127.0.0.1:0 2>"$build/cross-run.err") \
  || fail "short embedded run under qemu: exit $? ($(tail -3 "$build/cross-run.err"))"
[[ $(jq .completed <<<"$results") == 8 ]] || fail "completed $(jq .completed <<<"$results") of 8"
grep -q '^bench: live metrics on http://127.0.0.1:[0-9]*/metrics' "$build/cross-run.err" \
  || fail "no live metrics server: $(cat "$build/cross-run.err")"
emulate "$build/tests/sse/sse_parser_test" --gtest_brief=1 >/dev/null || fail "sse_parser_test under qemu"
emulate "$build/tests/metrics/metrics_test" --gtest_brief=1 >/dev/null || fail "metrics_test under qemu"

rm -f "$build"/bench_*_arm64.deb
# dpkg-shlibdeps reads the arm64 libraries (and uses the arm64 objdump) for an arm64 host.
(cd "$build" && DEB_HOST_ARCH=arm64 cpack -G DEB >/dev/null)
debs=("$build"/bench_*_arm64.deb)
[[ -f ${debs[0]} ]] || fail "no bench_*_arm64.deb"
[[ $(dpkg-deb -f "${debs[0]}" Architecture) == arm64 ]] || fail "Architecture $(dpkg-deb -f "${debs[0]}" Architecture)"
depends=$(dpkg-deb -f "${debs[0]}" Depends)
grep -q 'libcurl4 (>= ' <<<"$depends" || fail "Depends: $depends"
grep -q 'libcpp-httplib0.11 (>= ' <<<"$depends" || fail "Depends: $depends"
grep -q 'libturbojpeg0 (>= ' <<<"$depends" || fail "Depends: $depends"
echo "cross_arm64: ${debs[0]}: $version" | head -1
