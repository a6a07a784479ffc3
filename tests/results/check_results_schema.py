#!/usr/bin/env python3
"""Every results file validates against bench's shipped JSON Schema (docs/results.schema.json).

Usage: check_results_schema.py BENCH_BINARY SCHEMA_JSON FIXTURE_DIR...

Validated (JSON Schema draft 7, python3-jsonschema): a fresh run, a fresh sweep, a --json-compat
vllm run, each written by the real binary against its embedded simulator, and every results file
in the fixture directories (merge state files excepted: they are not results files). A fresh
run's file must also carry every figure the schema lists, so a figure added to the writer's
tables is in the schema and one in the schema is written. The validator is shown to reject files
that break the schema, so a validator that accepts everything cannot pass.

Exit 77 (skipped, with the reason) without python3-jsonschema: scripts/setup --test installs it.
"""
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from schema_check import fail, exit_status, jsonschema  # noqa: E402  (exits 77 without it)


def errors_of(validator, document):
    return [f"/{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator.iter_errors(document)]


def check_valid(validator, name, document):
    errors = errors_of(validator, document)
    for error in errors[:5]:
        fail(f"{name}: does not validate: {error}")
    if not errors:
        print(f"ok: {name} validates")


def run_bench(bench, *args):
    quick = ["--input-len", "16", "--output-len", "8", "--sim-ttft-ms", "2", "--sim-tpot-ms", "1",
             "--no-answer-check", "--quiet"]
    subprocess.run([bench, *quick, *args], check=True, stdout=subprocess.DEVNULL)


def check_rejects(validator, run):
    """Files that break the schema are refused: a figure as text, a wrong schema_version, an
    unknown kind, a point that is not an object."""
    broken = []
    text_figure = copy.deepcopy(run)
    text_figure["output_throughput"] = "622 tok/s"
    broken.append(("a figure written as text", text_figure))
    latency_text = copy.deepcopy(run)
    latency_text["p99_ttft_ms"] = "fast"
    broken.append(("a latency statistic written as text", latency_text))
    newer = copy.deepcopy(run)
    newer["schema_version"] = 99
    broken.append(("schema_version 99", newer))
    unknown_kind = copy.deepcopy(run)
    unknown_kind["kind"] = "benchmark"
    broken.append(("an unknown kind", unknown_kind))
    bad_point = {"schema_version": run["schema_version"], "kind": "sweep", "points": [42]}
    broken.append(("a point that is not an object", bad_point))
    for what, document in broken:
        if not errors_of(validator, document):
            fail(f"the validator accepted a file with {what}")


def main():
    bench, schema_path, *fixture_dirs = sys.argv[1:]
    schema = json.load(open(schema_path))
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    listed = set(schema["definitions"]["run"]["properties"]) - {"repeat_runs"}
    with tempfile.TemporaryDirectory(prefix="bench-schema-") as tmp:
        run_path = os.path.join(tmp, "run.json")
        run_bench(bench, "--num-prompts", "16", "--concurrency", "4", "--output-file", run_path)
        run = json.load(open(run_path))
        check_valid(validator, "a fresh run", run)
        missing = sorted(listed - set(run))
        if missing:
            fail(f"a fresh run's file lacks figures the schema lists: {missing[:8]}")
        unlisted = sorted(k for k, v in run.items()
                          if isinstance(v, (int, float)) and not isinstance(v, bool)
                          and k not in listed and k != "schema_version")
        if unlisted:
            fail(f"a fresh run writes numeric figures the schema does not list: {unlisted[:8]}")
        sweep_path = os.path.join(tmp, "sweep.json")
        run_bench(bench, "--num-prompts", "8", "--concurrency", "2,4", "--output-file", sweep_path)
        check_valid(validator, "a fresh sweep", json.load(open(sweep_path)))
        compat_path = os.path.join(tmp, "compat.json")
        run_bench(bench, "--num-prompts", "8", "--concurrency", "2", "--json-compat", "vllm",
                  "--output-file", compat_path)
        check_valid(validator, "a fresh --json-compat vllm run", json.load(open(compat_path)))
        check_rejects(validator, run)
    checked = 0
    for directory in fixture_dirs:
        for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
            if os.path.basename(path).startswith("shard_state"):
                continue
            check_valid(validator, os.path.basename(path), json.load(open(path)))
            checked += 1
    if checked == 0:
        fail("no fixture was checked")
    if exit_status() != 0:
        sys.exit(1)
    print(f"all valid: 3 fresh files and {checked} fixtures")


if __name__ == "__main__":
    main()
