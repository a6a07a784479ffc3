#!/usr/bin/env python3
"""`bench export --format llm-d-report` checked against llm-d's own JSON Schema.

Usage: check_llmd_report.py BENCH_BINARY SCHEMA_JSON RESULTS_FIXTURES_DIR

The schema is llm-d-benchmark's br_v0_2_1_json_schema.json (tests/data/llm-d/, with its source).
Exported through the real binary: a fresh run and a sweep against the embedded simulator, and the
saved results files of tests/data/results (one with failed requests, one whose input counts are
unknown, one older layout). Every
report must validate (JSON Schema 2020-12, with its date-time formats), carry bench's output,
input and total rates apart and equal to the results file's, and leave out what the results file
says is unknown rather than write 0. The validator is shown to reject a report that breaks the
schema, so a validator that accepts everything cannot pass this test.

Exit 77 (skipped, with the reason) without python3-jsonschema: scripts/setup --test installs it.
"""
import copy
import datetime
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from schema_check import fail, exit_status, jsonschema  # noqa: E402  (exits 77 without it)


def export(bench, results_path, *extra):
    done = subprocess.run([bench, "export", results_path, "--format", "llm-d-report", *extra],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"FAIL: bench export {results_path}: exit {done.returncode}: "
                         f"{done.stderr}")
    if "-o" in extra:
        if done.stdout:
            fail(f"bench export -o also printed on stdout: {done.stdout[:80]!r}")
        return None
    return json.loads(done.stdout)


def date_time(text):
    """RFC 3339's date-time (what the schema's format names), checked here whether or not the
    installed jsonschema has a date-time checker of its own."""
    try:
        parsed = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    return "T" in text and parsed.tzinfo is not None


def schema_errors(validator, report):
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in validator.iter_errors(report)]
    start = report.get("run", {}).get("time", {}).get("start")
    if start is not None and not date_time(start):
        errors.append(f"run/time/start: {start!r} is not an RFC 3339 date-time")
    return errors


# The figures that need every request's input token count: unknown (whatever an older file
# wrote for them, 0 included) when token_count_source.input says a count was not known
# (docs/results-format.md).
INPUT_FIGURES = {"input_throughput", "total_throughput", "mean_prompt_tokens"}


def known(run, key):
    source = run.get("token_count_source", {}).get("input")
    if key in INPUT_FIGURES and source in ("unknown", "mixed"):
        return None
    return run.get(key)


def check_figures(name, report, run):
    """The rates and counts are the results file's own; unknown ones are absent, not 0."""
    aggregate = report["results"]["request_performance"]["aggregate"]
    rates = aggregate.get("throughput", {})
    for field, key in (("output_token_rate", "output_throughput"),
                       ("input_token_rate", "input_throughput"),
                       ("total_token_rate", "total_throughput"),
                       ("request_rate", "request_throughput")):
        known_value = known(run, key)
        if known_value is None:
            if field in rates:
                fail(f"{name}: {field} written although {key} is unknown")
        elif field not in rates or rates[field]["mean"] != known_value:
            fail(f"{name}: {field} {rates.get(field)} is not {key} {known_value}")
    input_length = aggregate.get("requests", {}).get("input_length")
    if known(run, "mean_prompt_tokens") is None and input_length is not None:
        fail(f"{name}: requests.input_length written although mean_prompt_tokens is unknown")
    if "input_token_rate" in rates and "total_token_rate" in rates:
        total = rates["input_token_rate"]["mean"] + rates["output_token_rate"]["mean"]
        if abs(rates["total_token_rate"]["mean"] - total) > 1e-9 * max(total, 1):
            fail(f"{name}: total_token_rate is not input + output")
    for unit_field, unit in (("output_token_rate", "tokens/s"), ("input_token_rate", "tokens/s"),
                             ("total_token_rate", "tokens/s"), ("request_rate", "queries/s")):
        if unit_field in rates and rates[unit_field]["units"] != unit:
            fail(f"{name}: {unit_field} in {rates[unit_field]['units']}, not {unit}")
    requests = aggregate.get("requests", {})
    if "repeat_runs" not in run:
        for field, key in (("total", "sent"), ("failures", "failed"), ("incomplete", "cancelled")):
            if requests.get(field) != run.get(key):
                fail(f"{name}: requests.{field} {requests.get(field)} is not {key} {run.get(key)}")
    latency = aggregate.get("latency", {})
    for field, key in (("time_to_first_token", "mean_ttft_ms"),
                       ("inter_token_latency", "mean_itl_ms"),
                       ("time_per_output_token", "mean_tpot_ms"),
                       ("request_latency", "mean_e2e_latency_ms")):
        if run.get(key) is None:
            if field in latency:
                fail(f"{name}: {field} written although {key} is null")
        elif latency.get(field, {}).get("mean") != run[key]:
            fail(f"{name}: {field} mean {latency.get(field)} is not {key} {run[key]}")


def reports_of(exported):
    return exported if isinstance(exported, list) else [exported]


def check_file(bench, validator, name, results_path):
    results = json.load(open(results_path))
    runs = results["points"] if "points" in results else [results]
    reports = reports_of(export(bench, results_path))
    if len(reports) != len(runs):
        fail(f"{name}: {len(reports)} reports for {len(runs)} runs")
        return
    for index, (report, run) in enumerate(zip(reports, runs)):
        label = f"{name}[{index}]"
        for error in schema_errors(validator, report):
            fail(f"{label}: does not validate: {error}")
        check_figures(label, report, run)
    print(f"ok: {name}: {len(reports)} report(s) validate against llm-d's schema")


def check_validator_rejects(validator, report):
    """The validator is live: a bare "tok/s" unit, a field llm-d does not define and a missing
    run.uid must each be refused."""
    broken = []
    bad_unit = copy.deepcopy(report)
    bad_unit["results"]["request_performance"]["aggregate"]["throughput"][
        "output_token_rate"]["units"] = "tok/s"
    broken.append(("a bare tok/s unit", bad_unit))
    extra = copy.deepcopy(report)
    extra["results"]["request_performance"]["aggregate"]["throughput"]["goodput"] = {
        "units": "tokens/s", "mean": 1.0}
    broken.append(("a field the schema lacks", extra))
    no_uid = copy.deepcopy(report)
    del no_uid["run"]["uid"]
    broken.append(("no run.uid", no_uid))
    for what, document in broken:
        if not schema_errors(validator, document):
            fail(f"the validator accepted a report with {what}")


def main():
    bench, schema_path, fixtures = sys.argv[1:4]
    schema = json.load(open(schema_path))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema,
                                                format_checker=jsonschema.FormatChecker())
    with tempfile.TemporaryDirectory(prefix="bench-llmd-") as tmp:
        quick = ["--input-len", "16", "--output-len", "8", "--sim-ttft-ms", "2",
                 "--sim-tpot-ms", "1", "--no-answer-check", "--quiet"]
        run_path = os.path.join(tmp, "run.json")
        subprocess.run([bench, "--num-prompts", "24", "--concurrency", "4", "--ignore-eos",
                        *quick, "--output-file", run_path],
                       check=True, stdout=subprocess.DEVNULL)
        sweep_path = os.path.join(tmp, "sweep.json")
        subprocess.run([bench, "--num-prompts", "12", "--concurrency", "2,4", *quick,
                        "--output-file", sweep_path],
                       check=True, stdout=subprocess.DEVNULL)
        check_file(bench, validator, "a run", run_path)
        check_file(bench, validator, "a sweep", sweep_path)
        # single_run_estimate.json: a server that sent no usage, its input figures unknown
        # (written as 0 by the bench of that time): they must be left out.
        for fixture in ("single_run.json", "single_run_failures.json", "single_run_estimate.json",
                        "single_run_legacy.json", "sweep_concurrency.json"):
            check_file(bench, validator, fixture, os.path.join(fixtures, fixture))

        # --point and -o: the second point alone, written to a file.
        out_path = os.path.join(tmp, "point2.json")
        export(bench, sweep_path, "--point", "2", "-o", out_path)
        point = json.load(open(out_path))
        every = export(bench, sweep_path)
        if point != every[1]:
            fail("--point 2 -o FILE did not write the sweep's second report")
        for error in schema_errors(validator, point):
            fail(f"--point 2: does not validate: {error}")

        run_report = export(bench, run_path)
        load = run_report.get("scenario", {}).get("load", {}).get("standardized", {})
        if load.get("tool") != "bench":
            fail(f"scenario.load.standardized.tool is {load.get('tool')!r}, not 'bench'")
        check_validator_rejects(validator, run_report)

    return exit_status()


if __name__ == "__main__":
    sys.exit(main())
