#!/usr/bin/env python3
"""Builds the results fixtures the report renderers are tested on, from real bench runs.

Usage: tests/data/results/make_fixtures.py BENCH_BINARY [OUT_DIR]

Each fixture is a real run of bench against its embedded simulated server (--output-file and
--save-requests). The keys of issue 7 that a bench build may not write yet (kind, timeline,
distributions, steady_state, request_rate, goodput; /work/notes/results-schema.md) are
derived here from the per-request log, by the definitions of include/bench/metrics/timeline.hpp
and run_summary.cpp; a bench that already writes a key keeps its own.

The sweep emulates a server that slows as its batch grows (the simulator's per-token and
first-token times are raised with concurrency), so its curves bend as a real server's do;
the simulator on its own would scale without limit.
"""
import json
import math
import os
import subprocess
import sys
import tempfile

STEP_S = 0.010  # the resolution Timeline keeps counts at
BUCKET_S = 1.0


def percentile(sorted_values, p):
    """numpy's default: linear interpolation between closest ranks."""
    if not sorted_values:
        return 0.0
    rank = (len(sorted_values) - 1) * p / 100.0
    lo = math.floor(rank)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (rank - lo)


def cdf(values):
    values = sorted(values)
    if not values:
        return []
    points = []
    for p in range(101):
        if p == 100:
            points.append([99.9, round(percentile(values, 99.9), 3)])
        points.append([p, round(percentile(values, p), 3)])
    return points


def distributions(records):
    ok = [r for r in records if r["status"] == "ok"]
    ttft = [r["ttft_ms"] for r in ok if r["ttft_ms"] is not None]
    e2e = [r["e2e_ms"] for r in ok]
    itl, tpot = [], []
    for r in ok:
        arrivals = r["chunk_arrival_ms"]
        tokens = r["chunk_tokens"]
        if tokens is None and len(arrivals) > 0 and r["completion_tokens"]:
            tokens = [r["completion_tokens"] / len(arrivals)] * len(arrivals)
        for i in range(1, len(arrivals)):
            k = max(1, round(tokens[i])) if tokens else 1
            itl.extend([(arrivals[i] - arrivals[i - 1]) / k] * k)
        n = r["completion_tokens"] or 0
        if n >= 2 and r["ttft_ms"] is not None:
            tpot.append((r["e2e_ms"] - r["ttft_ms"]) / (n - 1))
    return {"ttft_ms": cdf(ttft), "itl_ms": cdf(itl), "tpot_ms": cdf(tpot),
            "e2e_latency_ms": cdf(e2e)}


def events(records):
    """Per measured request: start, end, first token (s from the first start), tokens."""
    measured = [r for r in records if not r["warmup"]]
    origin = min(r["start_ms"] for r in measured)
    out = []
    for r in measured:
        start = (r["start_ms"] - origin) / 1e3
        chunks = []
        if r["status"] == "ok":
            tokens = r["chunk_tokens"] or [1] * len(r["chunk_arrival_ms"])
            if r["chunk_tokens"] is None and r["chunk_arrival_ms"] and r["completion_tokens"]:
                tokens = [r["completion_tokens"] / len(r["chunk_arrival_ms"])] * len(
                    r["chunk_arrival_ms"])
            chunks = [(start + t / 1e3, k) for t, k in zip(r["chunk_arrival_ms"], tokens)]
        out.append({
            "start": start, "end": start + r["e2e_ms"] / 1e3, "ok": r["status"] == "ok",
            "failed": r["status"] not in ("ok", "cancelled"),
            "first": start + r["ttft_ms"] / 1e3 if r["ttft_ms"] is not None else None,
            "prompt": r["prompt_tokens"] or 0, "chunks": chunks,
        })
    return out


def timeline(evs):
    last = max(e["end"] for e in evs)
    buckets = []
    for i in range(int(last // BUCKET_S) + 1):
        t0, t1 = i * BUCKET_S, (i + 1) * BUCKET_S
        buckets.append({
            "t_s": round(t0, 3),
            "started": sum(t0 <= e["start"] < t1 for e in evs),
            "finished": sum(t0 <= e["end"] < t1 for e in evs),
            "in_flight": sum(e["start"] < t1 <= e["end"] for e in evs),
            "output_tokens": round(sum(k for e in evs for t, k in e["chunks"] if t0 <= t < t1)),
            "input_tokens": sum(e["prompt"] for e in evs
                                if e["ok"] and e["first"] is not None and t0 <= e["first"] < t1),
            "errors": sum(e["failed"] and t0 <= e["end"] < t1 for e in evs),
        })
    return {"bucket_s": BUCKET_S, "buckets": buckets}


def steady_state(evs, target):
    last = max(e["end"] for e in evs)
    steps = int(last / STEP_S) + 1
    in_flight = [0] * steps
    for e in evs:
        for s in range(int(e["start"] / STEP_S), min(steps, int(e["end"] / STEP_S))):
            in_flight[s] += 1
    best, run_start = (0, 0), None
    for s in range(steps + 1):
        high = s < steps and in_flight[s] >= 0.9 * target
        if high and run_start is None:
            run_start = s
        if not high and run_start is not None:
            if s - run_start > best[1] - best[0]:
                best = (run_start, s)
            run_start = None
    if best[1] - best[0] < 2:
        return None
    t0, t1 = best[0] * STEP_S, best[1] * STEP_S
    span = t1 - t0
    out_tokens = sum(k for e in evs for t, k in e["chunks"] if t0 <= t < t1)
    in_tokens = sum(e["prompt"] for e in evs
                    if e["ok"] and e["first"] is not None and t0 <= e["first"] < t1)
    done = sum(e["ok"] and t0 <= e["end"] < t1 for e in evs)
    return {"start_s": round(t0, 3), "end_s": round(t1, 3), "target_in_flight": target,
            "output_throughput": out_tokens / span, "input_throughput": in_tokens / span,
            "total_throughput": (out_tokens + in_tokens) / span,
            "request_throughput": done / span}


def run(bench, args):
    with tempfile.TemporaryDirectory() as tmp:
        results_path = os.path.join(tmp, "results.json")
        requests_path = os.path.join(tmp, "requests.jsonl")
        subprocess.run([bench, "-q", "--output-format", "json", "--output-file", results_path,
                        "--save-requests", requests_path] + args,
                       check=False, stdout=subprocess.DEVNULL)
        with open(results_path) as f:
            results = json.load(f)
        with open(requests_path) as f:
            records = [json.loads(line) for line in f if line.strip()]
    return results, records


def augmented(results, records):
    evs = events(records)
    results.setdefault("kind", "run")
    results.setdefault("request_rate", "inf")
    results.setdefault("goodput", None)
    results.setdefault("timeline", timeline(evs))
    results.setdefault("distributions", distributions([r for r in records if not r["warmup"]]))
    results.setdefault("steady_state", steady_state(evs, results["max_concurrency"]))
    return results


def sim(ttft_ms, tpot_ms):
    return ["--sim-ttft-ms", str(ttft_ms), "--sim-tpot-ms", str(tpot_ms)]


def main():
    bench = sys.argv[1]
    out_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(__file__))

    def write(name, obj):
        with open(os.path.join(out_dir, name), "w") as f:
            json.dump(obj, f, indent=1, sort_keys=True)
            f.write("\n")

    # A clean run: variable output lengths (early EOS), warm-up excluded.
    write("single_run.json", augmented(*run(bench, [
        "--num-prompts", "400", "--concurrency", "32", "--input-len", "512", "--output-len",
        "128", "--warmup-requests", "32", "--sim-eos-probability", "0.01"] + sim(80, 14))))
    # A quarter of the requests answered with HTTP 500: failures beside the throughput.
    write("single_run_failures.json", augmented(*run(bench, [
        "--num-prompts", "160", "--concurrency", "16", "--input-len", "256", "--output-len",
        "64", "--ignore-eos", "--sim-fail-500-fraction", "0.25"] + sim(50, 10))))
    # No usage from the server and 4 tokens a chunk: every token count is an estimate.
    write("single_run_estimate.json", augmented(*run(bench, [
        "--num-prompts", "96", "--concurrency", "8", "--input-len", "128", "--output-len", "64",
        "--ignore-eos", "--sim-no-usage", "--per-chunk-usage", "off", "--sim-tokens-per-chunk",
        "4"] + sim(40, 8))))
    # An older results file: none of issue 7's keys.
    legacy, _ = run(bench, ["--num-prompts", "32", "--concurrency", "4", "--input-len", "64",
                            "--output-len", "16", "--ignore-eos"] + sim(20, 5))
    for key in ("kind", "timeline", "distributions", "steady_state", "request_rate", "goodput"):
        legacy.pop(key, None)
    write("single_run_legacy.json", legacy)

    points = []
    concurrencies = [1, 4, 16, 64, 256]
    prompts = {1: 12, 4: 32, 16: 96, 64: 256, 256: 768}
    for c in concurrencies:
        point = augmented(*run(bench, [
            "--num-prompts", str(prompts[c]), "--concurrency", str(c), "--input-len", "512",
            "--output-len", "64", "--ignore-eos"] + sim(40 + 1.5 * c, round(8 + 0.12 * c, 2))))
        points.append(point)
    first = points[0]
    write("sweep_concurrency.json", {
        "schema_version": first["schema_version"], "bench_version": first["bench_version"],
        "kind": "sweep", "sweep": {"variable": "concurrency", "values": concurrencies},
        "points": points})


if __name__ == "__main__":
    main()
