# The check's driver (ours): vLLM's own chat request function over one aiohttp session, one
# request at a time; the figures as vllm/benchmarks/serve.py's calculate_metrics makes them
# (output_len = output_tokens; TPOT = (latency - ttft) / (output_len - 1); np.mean/median/
# percentile over ttfts, tpots, itls, e2els).
import asyncio, json, sys, time
import aiohttp
import numpy as np
sys.path.insert(0, sys.argv[4])
from endpoint_request_func import RequestFuncInput, async_request_openai_chat_completions

async def main(url, model, n):
    outputs = []
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=600)) as session:
        for _ in range(n):
            outputs.append(await async_request_openai_chat_completions(RequestFuncInput(
                prompt="Hi", api_url=url + "/v1/chat/completions", prompt_len=4, output_len=16,
                model=model), session))
    ttfts, tpots, itls, e2els = [], [], [], []
    for o in outputs:
        assert o.success, o.error
        if o.output_tokens > 1:
            tpots.append((o.latency - o.ttft) / (o.output_tokens - 1))
        itls += o.itl
        ttfts.append(o.ttft)
        e2els.append(o.latency)
    out = {}
    for name, values in (("ttft", ttfts), ("tpot", tpots), ("itl", itls), ("e2el", e2els)):
        out[f"mean_{name}_ms"] = float(np.mean(values)) * 1000
        out[f"median_{name}_ms"] = float(np.median(values)) * 1000
        out[f"p99_{name}_ms"] = float(np.percentile(values, 99)) * 1000
    print(json.dumps(out))

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
