#!/usr/bin/env bash
# Shards on a real Slurm cluster: a one-node cluster on this host (local_slurm.sh), `bench
# serve-sim` as the server, the recipe deploy/slurm/bench-shards.sbatch submitted with 4 tasks
# (4 shards of one seeded closed-loop workload, started together, merged by the job), and a
# one-process run of the same workload. The merged counts and token sums must equal the one process's exactly,
# and its median TTFT be near it (timing noise only). Exit 77 (skipped, with the reason) where
# Slurm cannot run: not root, or the packages are missing. Every daemon and server it starts
# is stopped by its PID.
#   tests/slurm/shards_on_slurm.sh BENCH_BINARY
set -euo pipefail
bench=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/local_slurm.sh"

reason=$(slurm_skip_reason)
if [[ -n $reason ]]; then
  echo "SKIPPED: Slurm cannot run here: $reason"
  exit 77
fi

dir=$(mktemp -d /tmp/bench-slurm.XXXXXX)
sim_pid=
cleanup() {
  [[ -n $sim_pid ]] && kill "$sim_pid" 2>/dev/null && wait "$sim_pid" 2>/dev/null
  slurm_stop
  rm -rf "$dir"
}
trap cleanup EXIT

"$bench" serve-sim --port 0 --time-scale 20 >"$dir/sim.out" 2>&1 &
sim_pid=$!
url=
for _ in $(seq 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*' "$dir/sim.out" | head -n 1 || true)
  [[ -n $url ]] && break
  sleep 0.1
done
[[ -n $url ]] || { echo "FAIL: serve-sim did not start: $(cat "$dir/sim.out")"; exit 1; }

slurm_start "$dir/slurm" || { echo "FAIL: the local Slurm cluster did not start"; exit 1; }

workload=(--base-url "$url" --seed 11 --num-prompts 64 --concurrency 8 --input-len 32
          --output-len 16 --ignore-eos --quiet --output-format json)
# The recipe as a user submits it (4 tasks on this 2-CPU node: --overcommit), waited for.
BENCH=$bench BENCH_START_DELAY_S=3 sbatch --wait --ntasks=4 --overcommit --time=3 \
  --output="$dir/job.out" "$here/../../deploy/slurm/bench-shards.sbatch" "$dir/out" \
  "${workload[@]}" >/dev/null || { echo "FAIL: the job failed: $(tail -n 5 "$dir/job.out")"; exit 1; }
ls "$dir"/out/shard-{0,1,2,3}.json >/dev/null
cp "$dir/out/merged.json" "$dir/merged.json"
"$bench" "${workload[@]}" --output-file "$dir/single.json" >/dev/null

status=0
for key in sent completed failed total_output_tokens total_input_tokens; do
  merged=$(jq ".$key" "$dir/merged.json")
  single=$(jq ".$key" "$dir/single.json")
  if [[ $merged != "$single" ]]; then
    echo "FAIL: $key: merged shards $merged, one process $single"
    status=1
  fi
done
ttft=$(jq -n --slurpfile m "$dir/merged.json" --slurpfile s "$dir/single.json" \
  '($m[0].median_ttft_ms / $s[0].median_ttft_ms)')
if ! jq -en "$ttft > 0.5 and $ttft < 2" >/dev/null; then
  echo "FAIL: median TTFT of the merged shards is $ttft x the one process's"
  status=1
fi
shards=$(jq '.shards.count // .merged.shards // empty' "$dir/merged.json")
echo "merged $shards shards of one sbatch job: counts equal the one-process run's; median TTFT ratio $ttft"
exit $status
