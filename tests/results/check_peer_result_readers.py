#!/usr/bin/env python3
"""vLLM's result files as bench writes them (--save-result and friends) are read unchanged by the
scripts written for vLLM's files. Each reader's requirements are restated below from its source
and applied to files the real binary writes against its embedded simulator.

Usage: check_peer_result_readers.py BENCH_BINARY
"""
import glob
import json
import math
import os
import re
import subprocess
import sys
import tempfile

FAILURES = []


def fail(message):
    FAILURES.append(message)
    print("FAIL: " + message)


def check(condition, message):
    if not condition:
        fail(message)
    return condition


def run_bench(bench, *args, expect=0):
    quick = ["--input-len", "16", "--output-len", "8", "--sim-ttft-ms", "2", "--sim-tpot-ms", "1",
             "--no-answer-check", "--quiet", "--num-prompts", "12", "--model", "org/tiny-model"]
    done = subprocess.run([bench, *quick, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    check(done.returncode == expect,
          f"bench {' '.join(args)}: exit {done.returncode}, wanted {expect}: {done.stderr}")
    return done


# SemiAnalysis InferenceX utils/process_result.py (run with vLLM's --save-result
# --percentile-metrics 'ttft,tpot,itl,e2el' --result-filename X.json): int(max_concurrency),
# model_id, float(total_token_throughput) and float(output_throughput); every key ending in "ms"
# through float(value) / 1000; every key containing "tpot" through 1000 / float(value).
def inferencex_reads(result, name):
    try:
        int(result["max_concurrency"])
        str(result["model_id"])
        float(result["total_token_throughput"]) - float(result["output_throughput"])
        for key, value in result.items():
            if key.endswith("ms"):
                float(value) / 1000.0
            if "tpot" in key:
                1000.0 / float(value)
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as error:
        fail(f"{name}: InferenceX's process_result.py would stop: {error!r}")
        return
    print(f"ok: {name}: InferenceX's process_result.py reads it")


LLMD_PERCENTILES = ["0.1", "1", "5", "10", "25", "75", "90", "95", "99", "99.9"]


# llm-d-benchmark benchmark_report/native_to_br0_2.py import_vllm_benchmark (YAML-loads the
# file): "date" matching [0-9]{8}-[0-9]{6}; request_rate and max_concurrency as given;
# num_prompts - completed; total_input_tokens / num_prompts; total_output_tokens / completed;
# mean, std, median and p0.1 ... p99.9 of ttft, tpot, itl, e2el (here asked with
# --metric-percentiles 0.1,1,5,10,25,75,90,95,99,99.9) as numbers or absent; output_throughput,
# total_token_throughput, request_throughput.
def llmd_reads(result, name):
    check(re.search("[0-9]{8}-[0-9]{6}", result.get("date", "")),
          f"{name}: llm-d: date {result.get('date')!r} is not YYYYMMDD-HHMMSS")
    try:
        float(result.get("request_rate"))  # a number or the string "inf"
        result.get("num_prompts") - result.get("completed")
        result.get("total_input_tokens", 0) / result.get("num_prompts", -1)
        result.get("total_output_tokens", 0) / result.get("completed", -1)
        for key in ("output_throughput", "total_token_throughput", "request_throughput"):
            float(result[key])
    except (KeyError, TypeError, ValueError) as error:
        fail(f"{name}: llm-d's import_vllm_benchmark would stop: {error!r}")
        return
    for metric in ("ttft", "tpot", "itl", "e2el"):
        for stat in ["mean", "std", "median"] + ["p" + p for p in LLMD_PERCENTILES]:
            key = f"{stat}_{metric}_ms"
            check(isinstance(result.get(key), (int, float)),
                  f"{name}: llm-d: {key} is {result.get(key)!r}, not a number")
    print(f"ok: {name}: llm-d's import_vllm_benchmark reads it")


# vLLM .buildkite/performance-benchmarks/scripts/convert-results-json-to-markdown.py: model_id,
# completed, max_concurrency, the throughputs, mean/median/p99/std of ttft and tpot, and
# mean/median/p99 of itl.
def vllm_markdown_reads(result, name):
    keys = ["model_id", "completed", "max_concurrency", "request_throughput",
            "output_throughput", "total_token_throughput"]
    for metric in ("ttft", "tpot"):
        keys += [f"{stat}_{metric}_ms" for stat in ("mean", "median", "p99", "std")]
    keys += [f"{stat}_itl_ms" for stat in ("mean", "median", "p99")]
    missing = [key for key in keys if key not in result]
    if check(not missing, f"{name}: vLLM's convert-results-json-to-markdown.py lacks {missing}"):
        print(f"ok: {name}: vLLM's convert-results-json-to-markdown.py reads it")


def no_null_under_ms(result, name):
    bad = [k for k, v in result.items()
           if k.endswith("ms") and not (isinstance(v, (int, float)) and math.isfinite(v))]
    check(not bad, f"{name}: keys ending in ms without a number: {bad}")


def load_one(path):
    with open(path) as f:
        return json.load(f)


def check_inferencex(bench, tmp):
    path = os.path.join(tmp, "inferencex.json")
    run_bench(bench, "--concurrency", "4", "--save-result", "--percentile-metrics",
              "ttft,tpot,itl,e2el", "--result-filename", path)
    result = load_one(path)
    inferencex_reads(result, "InferenceX's call")
    no_null_under_ms(result, "InferenceX's call")
    vllm_markdown_reads(result, "InferenceX's call")
    check(result.get("request_rate") == "inf", "an unlimited rate is the string inf")
    check(result.get("max_concurrency") == 4, "max_concurrency is the cap, an integer")


def check_llmd(bench, tmp):
    folder = os.path.join(tmp, "llmd")
    run_bench(bench, "--concurrency", "2", "--save-result", "--label", "vllm", "--result-dir",
              folder, "--percentile-metrics", "ttft,tpot,itl,e2el", "--metric-percentiles",
              ",".join(LLMD_PERCENTILES))
    files = glob.glob(os.path.join(folder, "*.json"))
    if not check(len(files) == 1, f"llm-d's call: one file in --result-dir, found {files}"):
        return
    name = os.path.basename(files[0])
    # vLLM's default name; llm-d's older importer picks files matching ^vllm.+\.json$.
    check(re.match(r"^vllm-infqps-concurrency2-tiny-model-[0-9]{8}-[0-9]{6}\.json$", name),
          f"llm-d's call: file name {name} is not vLLM's default")
    check(re.match(r"^vllm.+\.json$", name), f"{name}: not picked by llm-d's older importer")
    result = load_one(files[0])
    llmd_reads(result, "llm-d's call")
    no_null_under_ms(result, "llm-d's call")
    check(result.get("label") == "vllm" and "burstiness" in result,
          "llm-d's older importer reads label and burstiness")


def check_sweep_and_append(bench, tmp):
    folder = os.path.join(tmp, "sweep")
    run_bench(bench, "--concurrency", "1,3", "--save-result", "--result-dir", folder)
    names = sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "*.json")))
    check(len(names) == 2 and "-concurrency1-" in names[0] and "-concurrency3-" in names[1],
          f"a sweep writes one file per point, as a vLLM loop: {names}")
    path = os.path.join(tmp, "appended.json")
    for _ in range(2):
        run_bench(bench, "--concurrency", "2", "--append-result", "--result-filename", path)
    with open(path) as f:
        lines = f.read().split("\n")
    check(len(lines) == 2, f"--append-result twice: two JSON lines, found {len(lines)}")
    for line in lines:
        inferencex_reads(json.loads(line), "an appended result")


def check_refusals(bench):
    for flags in (["--metric-percentiles", "101"], ["--metadata", "novalue"]):
        done = run_bench(bench, "--save-result", *flags, expect=2)
        check(done.stderr.count("\n") == 1, f"{flags}: one line on stderr: {done.stderr!r}")


def main():
    bench = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="bench-peer-") as tmp:
        os.chdir(tmp)
        check_inferencex(bench, tmp)
        check_llmd(bench, tmp)
        check_sweep_and_append(bench, tmp)
        check_refusals(bench)
    if FAILURES:
        print(f"{len(FAILURES)} failure(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
