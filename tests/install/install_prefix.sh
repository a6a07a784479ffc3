#!/usr/bin/env bash
# `cmake --install BUILD --prefix P` into a temporary P: the files land where Debian puts them,
# and the installed bench says its version, commit and libcurl and runs a short benchmark
# against its embedded server with the source and build trees out of sight (an empty tmpfs
# mounted over each in a private mount namespace; where the namespace is refused, from / with
# an empty environment, and said).
#   install_prefix.sh BUILD_DIR EXPECT_MAN_PAGE(yes|no)
set -euo pipefail
build=$(cd "$1" && pwd)
expect_man=$2
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "install_prefix: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
for file in bin/bench share/bash-completion/completions/bench share/zsh/vendor-completions/_bench \
            share/doc/bench/README.md share/doc/bench/copyright share/doc/bench/docs/usage.md \
            share/doc/bench/deploy/kubernetes/bench-shards.yaml \
            share/doc/bench/deploy/slurm/bench-shards.sbatch; do
  [[ -f $prefix/$file ]] || fail "missing $file"
done
[[ -x $prefix/share/doc/bench/deploy/kubernetes/run.sh ]] || fail "deploy/kubernetes/run.sh lost its mode"
if [[ $expect_man == yes ]]; then
  [[ -f $prefix/share/man/man1/bench.1 ]] || fail "missing share/man/man1/bench.1"
  grep -q -- '--concurrency' "$prefix/share/man/man1/bench.1" \
    || grep -q -- '\\-\\-concurrency' "$prefix/share/man/man1/bench.1" \
    || fail "the man page does not list --concurrency"
fi

# What runs with the trees hidden: --version, then 8 requests against the embedded server.
check='
  set -euo pipefail
  version=$(bench --version)
  grep -qx "bench [0-9][0-9.]*" <<<"${version%%$'"'\n'"'*}" || { echo "first line: $version" >&2; exit 1; }
  grep -q "^commit " <<<"$version" || { echo "no commit: $version" >&2; exit 1; }
  grep -q "^libcurl [0-9]" <<<"$version" || { echo "no libcurl: $version" >&2; exit 1; }
  results=$(bench --num-prompts 8 --concurrency 2 --input-len 16 --output-len 4 --ignore-eos \
    --quiet --output-format json)
  [[ $(jq .completed <<<"$results") == 8 ]] || { echo "completed: $(jq .completed <<<"$results")" >&2; exit 1; }
  # --version says what the results record as their provenance: one owner of both.
  made=$(jq -r "\"commit \(.provenance.commit) (\(.provenance.build_type) build)\"" <<<"$results")
  grep -qxF "$made" <<<"$version" || { echo "--version [$version] is not the results [$made]" >&2; exit 1; }
'
env_path="PATH=$prefix/bin:/usr/bin:/bin"
if unshare --mount true 2>/dev/null; then
  unshare --mount env -i "$env_path" HOME=/tmp bash -c "
    mount -t tmpfs hidden '$build'
    mount -t tmpfs hidden '$source_dir'
    [[ -z \$(ls -A '$source_dir') ]] || { echo 'the source tree is still visible' >&2; exit 1; }
    cd / && $check"
else
  echo "install_prefix: no mount namespace here: the trees stay visible; running from / with an empty environment" >&2
  (cd / && env -i "$env_path" HOME=/tmp bash -c "$check")
fi
