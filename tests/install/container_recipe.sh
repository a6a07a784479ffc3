#!/usr/bin/env bash
# deploy/Containerfile against the package and the manifests, offline (no registry is reachable
# to pull its base image): it starts from Debian 12 slim, COPYs the file name CPack gives the
# package, runs as a non-root user with bench as its entry point, and every image the
# Kubernetes manifests name is its tag, bench:VERSION. Its RUN steps are run for real by
# container_steps_in_chroot.sh in a clean Debian 12 root file system.
#   container_recipe.sh SOURCE_DIR VERSION
set -euo pipefail
source_dir=$1
version=$2
recipe=$source_dir/deploy/Containerfile
fail() { echo "container_recipe: $*" >&2; exit 1; }

grep -qx 'FROM docker.io/library/debian:12-slim' "$recipe" || fail "not FROM Debian 12 slim"
user=$(awk '$1 == "USER" {print $2}' "$recipe" | tail -1)
[[ -n $user && $user != root && $user != 0 ]] || fail "runs as '${user:-root}'"
grep -qx 'ENTRYPOINT \["bench"\]' "$recipe" || fail "bench is not the entry point"
# The COPY source, with the architecture podman or docker passes, matches CPack's file name.
pattern=$(awk '$1 == "COPY" {print $2}' "$recipe")
for arch in amd64 arm64; do
  glob=${pattern//\$\{TARGETARCH\}/$arch}
  # shellcheck disable=SC2053  # the glob is the point
  [[ bench_${version}_$arch.deb == $glob ]] || fail "COPY $pattern misses bench_${version}_$arch.deb"
done

images=$(grep -h 'image:' "$source_dir"/deploy/kubernetes/*.yaml | awk '{print $2}' | sort -u)
[[ $images == "bench:$version" ]] || fail "deploy/kubernetes names [$images], the recipe's tag is bench:$version"
grep -q "bench:$version" "$recipe" || fail "the recipe's build line does not tag bench:$version"
