#!/usr/bin/env python3
"""A deliberately late client for `bench grade`'s tests: it streams chat completions one at a
time and sleeps SLEEP_MS after the response's headers before it reads the body, so its TTFT is
the sleep, not the server's; it writes its figures as vLLM's --save-result object.

    late_client.py URL NUM SLEEP_MS RESULTS
"""
import http.client
import json
import sys
import time
import urllib.parse


def percentile(values, p):  # numpy's linear method
    v = sorted(values)
    h = (len(v) - 1) * p / 100
    lo = int(h)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (h - lo) * (v[hi] - v[lo])


def one_request(url, sleep_ms):
    parts = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port)
    body = json.dumps({"model": "bench-sim", "messages": [{"role": "user", "content": "hi there"}],
                       "max_tokens": 8, "ignore_eos": True, "stream": True,
                       "stream_options": {"include_usage": True}})
    start = time.perf_counter()
    conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
    response = conn.getresponse()
    time.sleep(sleep_ms / 1000)
    stamps, tokens = [], 0
    for raw in response:
        line = raw.decode().strip()
        if not line.startswith("data: ") or line == "data: [DONE]":
            continue
        data = json.loads(line[6:])
        if data.get("usage"):
            tokens = data["usage"]["completion_tokens"]
        choices = data.get("choices") or []
        if choices and (choices[0].get("delta") or {}).get("content"):
            stamps.append(time.perf_counter())
    end = time.perf_counter()
    conn.close()
    return start, stamps, end, tokens


def main():
    url, num, sleep_ms, out = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    ttfts, itls, tpots, e2els, total_out = [], [], [], [], 0
    began = time.perf_counter()
    for _ in range(num):
        start, stamps, end, tokens = one_request(url, sleep_ms)
        ttft = stamps[0] - start
        ttfts.append(ttft * 1000)
        itls += [(b - a) * 1000 for a, b in zip(stamps, stamps[1:])]
        e2els.append((end - start) * 1000)
        tpots.append((end - start - ttft) / (tokens - 1) * 1000)
        total_out += tokens
    duration = time.perf_counter() - began
    result = {"model_id": "bench-sim", "completed": num, "failed": 0, "duration": duration,
              "max_concurrency": 1, "request_rate": "inf", "total_input_tokens": 2 * num,
              "total_output_tokens": total_out, "request_throughput": num / duration,
              "output_throughput": total_out / duration,
              "total_token_throughput": (total_out + 2 * num) / duration}
    for name, values in (("ttft", ttfts), ("itl", itls), ("tpot", tpots), ("e2el", e2els)):
        result[f"mean_{name}_ms"] = sum(values) / len(values)
        result[f"median_{name}_ms"] = percentile(values, 50)
        result[f"p99_{name}_ms"] = percentile(values, 99)
    with open(out, "w") as f:
        json.dump(result, f)


main()
