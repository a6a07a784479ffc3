#!/bin/bash
# bench's shards on Kubernetes, end to end: the Indexed Job of bench-shards.yaml (its shards
# starting together BENCH_START_DELAY_S seconds from now, default 60: time for every pod to be
# scheduled and pull the image), then, once every shard has completed, the merge Job of
# bench-merge.yaml, whose log (the merged text report) is printed. The merged JSON stays on the
# volume beside the shards' files: /results/merged.json of the claim bench-results.
#   deploy/kubernetes/run.sh [IMAGE]
# IMAGE: where the cluster pulls bench's image from (deploy/Containerfile builds it; any image
# with bench on PATH and /bin/sh will do); without it the manifests' own name, bench:VERSION,
# which a cluster finds only when that image was loaded onto its nodes. kubectl's current
# context and namespace are used. A previous run's Jobs are deleted first (a Job's pods cannot be rerun);
# its shard files are overwritten by the new ones.
set -euo pipefail
image=${1:-}
here=$(cd "$(dirname "$0")" && pwd)
start_at=$(($(date +%s) + ${BENCH_START_DELAY_S:-60}))

fill() {
  sed -e "s|BENCH_START_AT|$start_at|g" \
      -e "${image:+s|image: bench:[^ ]*|image: $image|}" "$1"
}

# Waits until Job $1 has completed (0) or failed (1): kubectl wait cannot wait for either.
wait_for_job() {
  local conditions
  while :; do
    conditions=$(kubectl get job "$1" -o 'jsonpath={.status.conditions[?(@.status=="True")].type}')
    case " $conditions " in
      *" Complete "*) return 0 ;;
      *" Failed "*)
        echo "run.sh: job $1 failed; see kubectl logs -l job-name=$1" >&2
        return 1 ;;
    esac
    sleep 5
  done
}

kubectl delete job bench-shards bench-merge --ignore-not-found >/dev/null
fill "$here/bench-shards.yaml" | kubectl apply -f -
wait_for_job bench-shards
fill "$here/bench-merge.yaml" | kubectl apply -f -
wait_for_job bench-merge
kubectl logs job/bench-merge
