# The check's driver (ours): SGLang's own chat request function and metrics, one request at a
# time against URL, as bench_serving's --max-concurrency 1 would send them.
import asyncio, json, sys, time
from argparse import Namespace
sys.path.insert(0, sys.argv[4])
from sglang.benchmark.backends.base_client import RequestFuncInput
from sglang.benchmark.backends.oai_chat_client import OpenAIChatBackendClient
from sglang.benchmark.metrics import do_calculate_metrics

class WordTokenizer:  # stands in for the model's tokenizer (only the retokenized count uses it)
    def encode(self, text, add_special_tokens=False):
        return text.split()

async def main(url, model, n):
    client = OpenAIChatBackendClient(Namespace(disable_stream=False, disable_ignore_eos=False,
                                               print_requests=False, header=None))
    outputs = []
    start = time.perf_counter()
    for _ in range(n):
        outputs.append(await client.request(RequestFuncInput(
            prompt="Hi", api_url=url + "/v1/chat/completions", prompt_len=4, output_len=16,
            model=model, lora_name=None, image_data=None, extra_request_body={})))
    dur = time.perf_counter() - start
    metrics, _ = do_calculate_metrics(outputs, dur, WordTokenizer())
    print(json.dumps(metrics.__dict__))

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
