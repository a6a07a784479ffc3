#!/usr/bin/env bash
# deploy/Containerfile's steps run as a script in a clean Debian 12 root file system (a copy of
# ROOTFS, e.g. a debootstrap --variant=minbase bookworm tree), the way podman would run them
# without a registry: the package copied to where COPY puts it, each RUN under /bin/sh -c, then
# bench run as USER from WORKDIR: --version and a short benchmark against its embedded server.
# Needs root (chroot, mounts in a private namespace) and Debian's archive reachable for apt.
# Skipped (77) without ROOTFS or root.
#   container_steps_in_chroot.sh SOURCE_DIR BUILD_DIR [ROOTFS]
set -euo pipefail
source_dir=$1
build=$2
rootfs=${3:-/var/tmp/fresh-debian-rootfs}
recipe=$source_dir/deploy/Containerfile
fail() { echo "container_steps: $*" >&2; exit 1; }
skip() { echo "skipped: $*" >&2; exit 77; }
[[ $(id -u) == 0 ]] || skip "not root (chroot needs it)"
[[ -x $rootfs/bin/sh && -d $rootfs/etc/apt ]] \
  || skip "no clean Debian 12 root file system at $rootfs (debootstrap --variant=minbase bookworm makes one)"

arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf --one-file-system "$work"' EXIT
(cd "$build" && cpack -G DEB -B "$work/deb" >/dev/null)
cp -a "$rootfs" "$work/root"
root=$work/root
cp /etc/resolv.conf "$root/etc/resolv.conf"
# COPY bench_*_${TARGETARCH}.deb /tmp/bench.deb
cp "$work"/deb/bench_*_"$arch".deb "$root/tmp/bench.deb"

# The RUN steps, continuation lines joined, and the USER and WORKDIR they leave.
steps=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$recipe" | awk '$1 == "RUN" {sub(/^RUN +/, ""); print}')
user=$(awk '$1 == "USER" {print $2}' "$recipe" | tail -1)
workdir=$(awk '$1 == "WORKDIR" {print $2}' "$recipe" | tail -1)
[[ -n $steps ]] || fail "no RUN step in $recipe"

unshare --mount bash -euo pipefail -c '
  root=$1 steps=$2 user=$3 workdir=$4
  mount --bind /proc "$root/proc"; mount --bind /dev "$root/dev"
  while IFS= read -r step; do
    echo "RUN $step" >&2
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
      /bin/sh -c "$step" >/dev/null
  done <<<"$steps"
  run_as() {
    chroot --userspec="$user:$user" "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME="$workdir" \
      /bin/sh -c "cd \"$workdir\" && \"\$@\"" sh "$@"
  }
  run_as bench --version
  run_as bench --num-prompts 8 --concurrency 2 --input-len 16 --output-len 4 --ignore-eos \
    --quiet --output-format json >"$root/tmp/results.json"
' _ "$root" "$steps" "$user" "$workdir" || fail "the recipe's steps failed in $rootfs"
completed=$(jq .completed "$root/tmp/results.json")
[[ $completed == 8 ]] || fail "bench in the image completed $completed of 8"
