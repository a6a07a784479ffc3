#!/usr/bin/env python3
"""A real Prometheus scrapes bench's --metrics-listen while a run goes on and after it.

Usage: prometheus_scrape.py BENCH_BINARY

Debian's prometheus (scripts/setup --test installs it) is started on loopback with a 1 s scrape
interval, a storage directory of its own and port 0 (its port read back from /proc, so no port
is reserved and then bound); bench runs against its embedded simulator with --metrics-listen
127.0.0.1:0 and a long --metrics-linger, and Prometheus learns bench's port from a file_sd
targets file written once bench says it. Once Prometheus has scraped the finished figures twice,
its HTTP API (/api/v1/query) must agree with the results file bench writes: the output and input
token counters and the completed requests exactly, and the window percentile gauges (a window
holding the whole run) with the report's percentiles. It must also have scraped the run under
way: a sample with bench_run_finished 0 and fewer output tokens than at the end. Then bench's
linger is ended with SIGINT and Prometheus stopped, each by its PID.

Exit 77 (skipped, with the reason) without a prometheus binary. Bounded: every wait has a
deadline inside DEADLINE_S.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

DEADLINE_S = 50.0
STARTED = time.monotonic()
FAILURES = []


def fail(message):
    FAILURES.append(message)
    print("FAIL: " + message, flush=True)


def wait_for(what, probe, poll_s=0.2):
    """probe() until it returns something truthy; None (and a failure) at the deadline."""
    while time.monotonic() - STARTED < DEADLINE_S:
        value = probe()
        if value:
            return value
        time.sleep(poll_s)
    fail(f"timed out waiting for {what}")
    return None


def listening_ports(pid):
    """TCP ports process `pid` listens on: its socket inodes matched in /proc/net/tcp{,6}."""
    inodes = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[len("socket:["):-1])
    except OSError:
        return []
    ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                ports.append(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def http_get(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except (OSError, ValueError):
        return None, ""


def query(api, promql):
    """The instant vector of `promql` as {labels tuple: value}; {} when empty or on an error."""
    status, body = http_get(api + "/api/v1/query?" + urllib.parse.urlencode({"query": promql}))
    if status != 200:
        return {}
    data = json.loads(body)["data"]
    return {tuple(sorted(item["metric"].items())): float(item["value"][1])
            for item in data["result"]}


def single(api, promql):
    values = list(query(api, promql).values())
    return values[0] if len(values) == 1 else None


def announced_port(err_path):
    """bench's port from its stderr: "bench: live metrics on http://127.0.0.1:PORT/metrics"."""
    marker = "live metrics on http://127.0.0.1:"
    text = open(err_path).read()
    at = text.find(marker)
    if at < 0:
        return None
    digits = text[at + len(marker):].split("/", 1)[0]
    return int(digits) if digits.isdigit() else None


def stop(process, sig):
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main():
    bench = sys.argv[1]
    prometheus_binary = shutil.which("prometheus")
    if prometheus_binary is None:
        print("SKIPPED: no prometheus on PATH (scripts/setup --test installs Debian's)")
        return 77
    tmp = tempfile.mkdtemp(prefix="bench-prometheus-")
    targets = os.path.join(tmp, "targets.json")
    with open(targets, "w") as out:
        out.write("[]")
    config = os.path.join(tmp, "prometheus.yml")
    with open(config, "w") as out:
        out.write(f"""global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: bench
    file_sd_configs:
      - files: ["{targets}"]
        refresh_interval: 1s
""")
    prometheus = subprocess.Popen(
        [prometheus_binary, "--config.file", config, "--storage.tsdb.path",
         os.path.join(tmp, "data"), "--web.listen-address", "127.0.0.1:0", "--log.level", "warn"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, "prometheus.err"), "w"))
    bench_run = None
    try:
        port = wait_for("prometheus to listen", lambda: (listening_ports(prometheus.pid) or [0])[0])
        if not port:
            return 1
        api = f"http://127.0.0.1:{port}"
        if not wait_for("prometheus to be ready", lambda: http_get(api + "/-/ready")[0] == 200):
            return 1

        results_path = os.path.join(tmp, "results.json")
        err_path = os.path.join(tmp, "bench.err")
        bench_run = subprocess.Popen(
            [bench, "--duration", "12", "--concurrency", "4", "--input-len", "32",
             "--output-len", "16", "--ignore-eos", "--sim-ttft-ms", "20", "--sim-tpot-ms", "5",
             "--no-answer-check", "--metrics-listen", "127.0.0.1:0", "--metrics-linger", "40",
             "--metrics-window", "3600", "--output-file", results_path, "--quiet"],
            stdout=subprocess.DEVNULL, stderr=open(err_path, "w"))
        bench_port = wait_for("bench to announce its metrics port",
                              lambda: announced_port(err_path))
        if not bench_port:
            return 1
        with open(targets + ".tmp", "w") as out:
            json.dump([{"targets": [f"127.0.0.1:{bench_port}"]}], out)
        os.rename(targets + ".tmp", targets)  # file_sd reads it whole or not at all

        # The finished figures scraped twice: two samples of bench_run_finished equal to 1.
        finished = 'sum_over_time(bench_run_finished{job="bench"}[5m])'
        if not wait_for("two scrapes of the finished run", lambda: (single(api, finished) or 0) >= 2):
            return 1
        output = single(api, 'bench_tokens_total{gen_ai_token_type="output"}')
        first_output = single(api, 'min_over_time(bench_tokens_total{gen_ai_token_type="output"}[5m])')
        input_tokens = single(api, 'bench_tokens_total{gen_ai_token_type="input"}')
        completed = single(api, 'bench_requests_total{phase="measured",outcome="completed"}')
        under_way = single(api, 'min_over_time(bench_run_finished[5m])')
        p99_ttft_s = single(api, 'bench_window_latency_seconds{latency="ttft",percentile="99"}')
        median_tpot_s = single(api, 'bench_window_latency_seconds{latency="tpot",percentile="50"}')

        stop(bench_run, signal.SIGINT)  # ends the linger
        if bench_run.returncode != 0:
            fail(f"bench exited {bench_run.returncode}: {open(err_path).read()}")
            return 1
        results = json.load(open(results_path))

        def same(what, scraped, expected, relative=0.0):
            if scraped is None or abs(scraped - expected) > relative * abs(expected):
                fail(f"{what}: Prometheus has {scraped}, the results file {expected}")
            else:
                print(f"ok: {what}: {scraped} in Prometheus and in the results", flush=True)

        same("output tokens", output, results["total_output_tokens"])
        same("input tokens", input_tokens, results["total_input_tokens"])
        same("completed requests", completed, results["completed"])
        same("p99 TTFT over the window, ms", None if p99_ttft_s is None else p99_ttft_s * 1000,
             results["p99_ttft_ms"], 1e-9)
        same("median TPOT over the window, ms",
             None if median_tpot_s is None else median_tpot_s * 1000, results["median_tpot_ms"],
             1e-9)
        if under_way != 0:
            fail("Prometheus never scraped the run under way (no bench_run_finished 0 sample)")
        if first_output is None or first_output >= results["total_output_tokens"]:
            fail(f"the output token counter did not grow between scrapes ({first_output} at "
                 f"the first, {results['total_output_tokens']} at the end)")
        else:
            print(f"ok: Prometheus saw the output tokens grow from {first_output:g}", flush=True)
    finally:
        if bench_run is not None:
            stop(bench_run, signal.SIGINT)
        stop(prometheus, signal.SIGTERM)
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
