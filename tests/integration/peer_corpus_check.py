#!/usr/bin/env python3
"""Every command line of tests/data/peer_command_lines/corpus.jsonl (real vLLM and SGLang
benchmark command lines, each with its source) run by the real bench binary against a
`bench serve-sim` of its own, with only the program replaced (docs/coming-from-vllm-sglang.md).

A line runs (exit 0, read in its peer's dialect, a report printed), or is one that bench refuses
on purpose: listed in REFUSED below with the words its one error line must hold. Open-loop lines
whose arrivals would take minutes (1,200 requests at 4/s) get `--duration 3` appended, the one
flag added, said in the output; the rest run whole against a simulator 1000 x faster than real
time.

Usage: peer_corpus_check.py BENCH CORPUS DATASETS_DIR TRACES_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

# id -> what the one error line says: the lines bench refuses, and why.
REFUSED = {
    "ix-speedbench-vllm": "unknown flag --speed-bench-category",
    "vdoc-timed-trace": "unknown flag --self-timed",
    "sdoc-trt-disable-ignore-eos": "--backend trt: not an API bench speaks",
    # SGLang downloads ShareGPT when no --dataset-path is given; bench downloads nothing.
    "sdoc-quickstart-native": "needs --dataset-path FILE",
    "sdoc-vllm-sharegpt-outlen": "needs --dataset-path FILE",
    "sdoc-profile-flush": "needs --dataset-path FILE",
    "sblog-offline-sharegpt": "needs --dataset-path FILE",
    "s060-vllm-sharegpt-rate8": "needs --dataset-path FILE",
    # A tokenizer these machines do not have: a directory of the source's container.
    "ix-lib-openai-llmd": "--tokenizer /models",
}

# A Hugging Face repo id a line names as its --tokenizer, put in a hub cache of the check's own
# (HF_HUB_CACHE) as huggingface_hub lays it out, so the line runs as on a machine that has it.
CACHED_TOKENIZERS = {"zai-org/GLM-5.1-FP8"}


def byte_level_tokenizer():
    """A tokenizer.json whose every byte is one token (GPT-2's byte-to-unicode map, no merges)."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + \
        list(range(0xAE, 0x100))
    chars, extra = {}, 0
    for byte in range(256):
        if byte in printable:
            chars[byte] = chr(byte)
        else:
            chars[byte] = chr(256 + extra)
            extra += 1
    return {"version": "1.0", "added_tokens": [], "normalizer": None,
            "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False},
            "decoder": {"type": "ByteLevel"},
            "model": {"type": "BPE", "vocab": {chars[b]: b for b in range(256)}, "merges": []}}


def make_hub_cache(root):
    for repo in CACHED_TOKENIZERS:
        folder = os.path.join(root, "models--" + repo.replace("/", "--"))
        os.makedirs(os.path.join(folder, "refs"))
        os.makedirs(os.path.join(folder, "snapshots", "0123abcd"))
        with open(os.path.join(folder, "refs", "main"), "w") as out:
            out.write("0123abcd")
        with open(os.path.join(folder, "snapshots", "0123abcd", "tokenizer.json"), "w") as out:
            json.dump(byte_level_tokenizer(), out)

# Lines whose flags both peers have: read as vLLM's, saying --dialect sglang would read them as
# SGLang's (the source is SGLang's docs; nothing in the line tells).
AMBIGUOUS = {"sdoc-quickstart-vllm-baseurl"}

LONGEST_SCHEDULE_S = 8  # an open loop longer than this gets --duration 3


def start_sim(bench, log):
    sim = subprocess.Popen(
        [bench, "serve-sim", "--port", "0", "--time-scale", "1000", "--tokens-per-chunk", "64"],
        stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.time() + 30
    while time.time() < deadline:
        with open(log.name) as announced:
            found = re.search(r"listening on (http://[^ ]+)", announced.read())
        if found:
            return sim, found.group(1)
        time.sleep(0.05)
    sim.kill()
    raise SystemExit("serve-sim announced no URL within 30 s")


def fill(args, values):
    out = []
    for arg in args:
        for key, value in values.items():
            arg = arg.replace("{{" + key + "}}", value)
        out.append(arg)
    return out


def arg_value(args, flag):
    for i, arg in enumerate(args):
        if arg == flag and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(flag + "="):
            return arg[len(flag) + 1:]
    return None


def schedule_s(args):
    """Seconds an open loop's arrivals take: requests over the rate (0 for a closed loop)."""
    rate = arg_value(args, "--request-rate")
    prompts = arg_value(args, "--num-prompts") or arg_value(args, "--num-prompt") or "1000"
    if rate in (None, "inf"):
        return 0
    return int(prompts) / float(rate)


def check_line(bench, line, values, base_url):
    args = fill(line["args"], values)
    env = dict(os.environ)
    env.pop("OPENAI_BASE_URL", None)
    env.pop("OPENAI_API_KEY", None)
    env["HF_HUB_CACHE"] = values["HUB_CACHE"]
    names_server = any(p in " ".join(line["args"]) for p in ("{{HOST}}", "{{PORT}}", "{{BASE_URL}}"))
    if not names_server:
        env["OPENAI_BASE_URL"] = base_url  # the peer's default server, here the simulator
    added = []
    if schedule_s(args) > LONGEST_SCHEDULE_S:
        added = ["--duration", "3"]
    # In the line's own directory: vLLM writes its file there without --result-dir.
    run = subprocess.run([bench] + args + added, capture_output=True, text=True, env=env,
                         timeout=300, cwd=values["RESULT_DIR"])
    expected = REFUSED.get(line["id"])
    errors = [l for l in run.stderr.splitlines() if l.startswith("bench: error:")]
    if expected is not None:
        if run.returncode != 2 or len(errors) != 1 or expected not in errors[0]:
            return f"expected exit 2 and one error line with '{expected}', got {run.returncode}: {errors}"
        return None
    if run.returncode != 0:
        return f"exit {run.returncode}: {run.stderr.strip().splitlines()[-3:]}"
    peer = "SGLang's" if line["peer"] == "sglang" else "vLLM's"
    if line["id"] in AMBIGUOUS:
        peer = "vLLM's (none of its flags is one peer's alone; --dialect sglang"
    if f"reading this command line as {peer}" not in run.stderr:
        return f"not read as {peer}: {run.stderr.splitlines()[:6]}"
    if "bench results" not in run.stdout:
        return "no report on stdout"
    tokenizer = arg_value(args, "--tokenizer")
    if tokenizer in CACHED_TOKENIZERS and "lengths: tokens" not in run.stderr:
        return f"--tokenizer {tokenizer} from the hub cache: lengths not tokens"
    return check_files(line, args, values["RESULT_DIR"], run.stdout)


def check_files(line, args, result_dir, stdout):
    """The peer's own outputs: vLLM's block on stdout and its --save-result file; SGLang's
    --output-file line."""
    if line["peer"] == "vllm" and "Serving Benchmark Result" not in stdout:
        return "no vLLM summary block on stdout"
    if "--save-result" in args:
        name = arg_value(args, "--result-filename")
        found = [f for f in os.listdir(result_dir) if f.endswith(".json")]
        if name is not None:
            found = [f for f in found if f == os.path.basename(name)]
        if len(found) != 1:
            return f"--save-result wrote {found} in {result_dir}"
        saved = json.load(open(os.path.join(result_dir, found[0])))
        for key in ("date", "model_id", "completed", "output_throughput", "total_token_throughput"):
            if key not in saved:
                return f"vLLM's file lacks {key}"
    output_file = arg_value(args, "--output-file")
    if line["peer"] == "sglang" and output_file is not None:
        rows = [json.loads(l) for l in open(output_file) if l.strip()]
        if len(rows) != 1 or "total_throughput" not in rows[0]:
            return f"SGLang's --output-file holds {len(rows)} lines, not its one result line"
    return None


def main():
    bench, corpus, datasets, traces = sys.argv[1:5]
    lines = [json.loads(l) for l in open(corpus) if l.strip()]
    failures = []
    with tempfile.TemporaryDirectory() as tmp, open(os.path.join(tmp, "sim.log"), "w") as log:
        custom = os.path.join(tmp, "custom.jsonl")
        with open(custom, "w") as out:
            for i in range(40):
                out.write(json.dumps({"prompt": f"Question {i}: say something about the sea."}) + "\n")
        hub = os.path.join(tmp, "hub")
        make_hub_cache(hub)
        sim, base_url = start_sim(bench, log)
        host, port = re.match(r"http://([^:]+):(\d+)", base_url).groups()
        try:
            for line in lines:
                results = os.path.join(tmp, line["id"])
                os.makedirs(results, exist_ok=True)
                values = {"HOST": host, "PORT": port, "BASE_URL": base_url,
                          "SHAREGPT": os.path.join(datasets, "sharegpt_sample.json"),
                          "CUSTOM_JSONL": custom,
                          "TRACE_JSONL": os.path.join(traces, "mooncake_sample.jsonl"),
                          "SPEEDBENCH_DIR": tmp, "RESULT_DIR": results, "HUB_CACHE": hub}
                started = time.time()
                problem = check_line(bench, line, values, base_url)
                took = time.time() - started
                verdict = "ok" if problem is None else "FAIL " + problem
                print(f"{line['id']:34} {line['peer']:6} {took:6.1f} s  {verdict}", flush=True)
                if problem is not None:
                    failures.append(line["id"])
        finally:
            sim.terminate()
            sim.wait(timeout=30)
    ran = len(lines) - len(REFUSED)
    print(f"{len(lines)} command lines: {ran - len(failures)} of {ran} ran, "
          f"{len(REFUSED)} refused on purpose; failures: {failures or 'none'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
