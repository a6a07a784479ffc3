#!/usr/bin/env bash
# The Debian package CPack makes from BUILD (cmake/package.cmake), into a temporary directory:
# named bench_VERSION_ARCH.deb; its control says Depends from dpkg-shlibdeps (libcurl4 named);
# it holds the binary, the man page, the completion, the docs and the copyright; and the bench
# unpacked from it (dpkg-deb -x, nothing installed on this machine) says its version and runs a
# short benchmark against its embedded server. Installing it with apt in a clean Debian 12 is
# the fresh-machine check's (docs/install.md).
#   deb_package.sh BUILD_DIR EXPECT_MAN_PAGE(yes|no)
set -euo pipefail
build=$(cd "$1" && pwd)
expect_man=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "deb_package: $*" >&2; exit 1; }

(cd "$build" && cpack -G DEB -B "$out" >/dev/null)
arch=$(dpkg --print-architecture)
debs=("$out"/bench_*_"$arch".deb)
[[ -f ${debs[0]} ]] || fail "no bench_*_$arch.deb in: $(ls "$out")"
deb=${debs[0]}
version=$(dpkg-deb -f "$deb" Version)
[[ $(basename "$deb") == "bench_${version}_$arch.deb" ]] || fail "named $(basename "$deb")"
depends=$(dpkg-deb -f "$deb" Depends)
grep -q 'libcurl4 (>= ' <<<"$depends" || fail "Depends does not name libcurl4 with a version: $depends"
grep -q 'libc6 (>= ' <<<"$depends" || fail "Depends does not name libc6 with a version: $depends"
# --images-per-request's encoders.
grep -q 'libturbojpeg0 (>= ' <<<"$depends" || fail "Depends does not name libturbojpeg0: $depends"
grep -q 'libpng16-16 (>= ' <<<"$depends" || fail "Depends does not name libpng16-16: $depends"
[[ $(dpkg-deb -f "$deb" Architecture) == "$arch" ]] || fail "Architecture $(dpkg-deb -f "$deb" Architecture)"

contents=$(dpkg-deb --contents "$deb" | awk '{print $NF}')
wanted=(./usr/bin/bench ./usr/share/bash-completion/completions/bench
        ./usr/share/zsh/vendor-completions/_bench ./usr/share/doc/bench/copyright
        ./usr/share/doc/bench/README.md ./usr/share/doc/bench/docs/usage.md
        ./usr/share/doc/bench/deploy/kubernetes/bench-shards.yaml)
[[ $expect_man == yes ]] && wanted+=(./usr/share/man/man1/bench.1)
for file in "${wanted[@]}"; do
  grep -qx -- "$file" <<<"$contents" || fail "the package lacks $file"
done

dpkg-deb -x "$deb" "$out/root"
bench="$out/root/usr/bin/bench"
# Stripped: RelWithDebInfo's debug info stays in the build tree.
if readelf -S "$bench" | grep -q '\.debug_info'; then fail "usr/bin/bench is not stripped"; fi
[[ $("$bench" --version | head -1) == "bench $version" ]] || fail "--version: $("$bench" --version)"
results=$(cd / && "$bench" --num-prompts 8 --concurrency 2 --input-len 16 --output-len 4 \
  --ignore-eos --quiet --output-format json)
[[ $(jq .completed <<<"$results") == 8 ]] || fail "the packaged bench completed $(jq .completed <<<"$results") of 8"
