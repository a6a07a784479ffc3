#!/usr/bin/env python3
"""Builds the recordings of this corpus that were not made with `bench record`.

The llama.cpp ones are made of bytes captured from llama.cpp's llama-server (build b4748; the
prompt-cache pair from a build that says b0-unknown) in ../reference and ../server-api; the
vLLM, SGLang, TGI and Ollama ones follow those servers' source, the OpenAI ones OpenAI's API
reference (each recording's SOURCE.md cites it). What
a capture did not hold (the response head, the time of each read) is stated in SOURCE.md.
A recording made with `bench record` needs none of this: run from this directory,
`python3 build_corpus.py` rewrites only the directories named below.
"""
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(HERE, "..", "reference")
SERVER_API = os.path.join(HERE, "..", "server-api")
MS = 1_000_000
US = 1_000


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Recording:
    def __init__(self, name, source):
        self.dir = os.path.join(HERE, name)
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        with open(os.path.join(self.dir, "SOURCE.md"), "w") as f:
            f.write(source.strip() + "\n")
        self.count = 0

    def add(self, method, path, body, head, reads, close=None, connection=None, stream=None):
        """reads: [(at_ns, bytes)]; the head is sent with the first read."""
        self.count += 1
        name = "%06d" % self.count
        response = b""
        read_entries = []
        for k, (at_ns, data) in enumerate(reads):
            response += (head if k == 0 else b"") + data
            read_entries.append([at_ns, len(response)])
        if stream is None:
            try:
                stream = json.loads(body).get("stream") is True
            except ValueError:
                stream = False
        doc = {
            "format": 1,
            "connection": connection if connection is not None else self.count,
            "request": {"method": method, "path": path, "stream": stream,
                        "headers": [["Host", "127.0.0.1:8080"], ["Accept", "*/*"]] + (
                            [["Content-Type", "application/json"],
                             ["Content-Length", str(len(body))]] if method == "POST" else [])},
            "response": {"status": int(head.split(b" ")[1]), "reads": read_entries},
            "close": close or {"how": "open"},
        }
        stem = os.path.join(self.dir, name)
        with open(stem + ".request", "wb") as f:
            f.write(body)
        with open(stem + ".response", "wb") as f:
            f.write(response)
        with open(stem + ".json", "w") as f:
            f.write(json.dumps(doc, indent=1) + "\n")


def chunk(data):
    return b"%x\r\n" % len(data) + data + b"\r\n"


def events(sse):
    """The events of an SSE body, each with its blank line."""
    return [e + b"\n\n" for e in sse.split(b"\n\n") if e.strip()]


def sse_reads(evts, first_ns, gap_ns, terminal_after_ns=20 * US):
    """One HTTP chunk and one read per event; the terminal 0-chunk a read of its own."""
    reads = [(first_ns + k * gap_ns, chunk(e)) for k, e in enumerate(evts)]
    reads.append((reads[-1][0] + terminal_after_ns, b"0\r\n\r\n"))
    return reads


def fin(after_us, idle=False):
    return {"how": "fin", "after_last_byte_ns": int(after_us * US), "idle": idle}


LLAMACPP_STREAM_HEAD = (b"HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5, max=100\r\n"
                        b"Content-Type: text/event-stream\r\nServer: llama.cpp\r\n"
                        b"Transfer-Encoding: chunked\r\n\r\n")


def llamacpp_json_head(body, content_type=b"application/json; charset=utf-8"):
    return (b"HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5, max=100\r\nContent-Type: " +
            content_type + b"\r\nServer: llama.cpp\r\nContent-Length: %d\r\n\r\n" % len(body))


def llamacpp_timing(sse):
    """First event at timings.prompt_ms, one every timings.predicted_per_token_ms."""
    last = json.loads(events(sse)[-2][len(b"data: "):])
    timings = last["timings"]
    return int(timings["prompt_ms"] * MS), int(timings["predicted_per_token_ms"] * MS)


def llamacpp_stream(rec, path, body, sse, close):
    first, gap = llamacpp_timing(sse)
    rec.add("POST", path, body, LLAMACPP_STREAM_HEAD, sse_reads(events(sse), first, gap), close)


def llamacpp_get(rec, path, body, content_type=b"application/json; charset=utf-8"):
    rec.add("GET", path, b"", llamacpp_json_head(body, content_type), [(300 * US, body)])


def llamacpp_post(rec, path, request, body):
    rec.add("POST", path, request, llamacpp_json_head(body), [(300 * US, body)])


LLAMACPP_TIMING = """
Times: the capture holds bytes, not times. Each event is one HTTP chunk and one read (llama.cpp
writes each event with its own sink.write, tools/server/server.cpp); the first arrives at the
final chunk's `timings.prompt_ms`, the next ones every `timings.predicted_per_token_ms`, the
terminal `0\\r\\n\\r\\n` chunk 20 us after the last event, a read of its own. The response head
is the one llama-server sends (cpp-httplib's `Keep-Alive: timeout=5, max=100`, observed), sent
with the first event; the request body is reconstructed (the capture holds no prompt text).
"""


def build_llamacpp():
    models = read(os.path.join(SERVER_API, "llamacpp-models.response.json"))
    completion = read(os.path.join(REFERENCE, "llamacpp-completions.sse"))
    body = b'{"model":"tiny-llama","prompt":"Hello world, this is","max_tokens":16,"stream":true}'
    rec = Recording("llamacpp-b4748-close-after-stream", """
# llama.cpp llama-server b4748: a completion stream, then the close

Server: llama.cpp `llama-server`, build b4748 (c392e5094), tiny random-weight model
`tiny-llama` (LLaMA 32k vocabulary), `POST /v1/completions` with `"stream": true`.

Bytes: the streamed body captured from that server (16 text events, `usage` on the
`finish_reason` event with llama.cpp's `timings`, then `data: [DONE]`), and its `GET /v1/models`.

Close: llama-server says `Keep-Alive: timeout=5, max=100` and closes the connection after every
stream anyway. Measured with a raw socket against build b4748 (five streamed completions): the
FIN came 67, 74, 8, 90 and 9 us after the terminal chunk, a read of its own. The five exchanges
here carry those five delays, served in turn; a request written into that window is left
unread and meets the close.
""" + LLAMACPP_TIMING)
    for delay_us in (67, 74, 8, 90, 9):
        llamacpp_stream(rec, "/v1/completions", body, completion, fin(delay_us))
    llamacpp_get(rec, "/v1/models", models)

    chat = read(os.path.join(REFERENCE, "llamacpp-chat.sse"))
    rec = Recording("llamacpp-b4748-chat-and-side-routes", """
# llama.cpp llama-server b4748: a chat stream and the side routes

Server: llama.cpp `llama-server`, build b4748, tiny random-weight model `tiny-llama`.

Bytes, as received from that server: a `POST /v1/chat/completions` stream (no role-only first
chunk; `usage` on the `finish_reason` chunk), `GET /v1/models`, `POST /tokenize` (plain and
`with_pieces`), `POST /apply-template` (one user message "Hello world": the llama-2 template)
and `GET /metrics` (with `--metrics`, after some load). `/tokenize` adds no BOS; a completion's
`usage.prompt_tokens` counts it.

Close: after the stream, a FIN 67 us after the terminal chunk (as measured on this build, see
llamacpp-b4748-close-after-stream); the other routes keep the connection.
""" + LLAMACPP_TIMING + """
The side routes' bodies arrive in one read 0.3 ms after the request (not measured).
""")
    chat_body = (b'{"model":"tiny-llama","messages":[{"role":"user","content":"Hello world"}],'
                 b'"max_tokens":16,"stream":true}')
    llamacpp_stream(rec, "/v1/chat/completions", chat_body, chat, fin(67))
    llamacpp_get(rec, "/v1/models", models)
    llamacpp_post(rec, "/tokenize",
                  b'{"content": "Hello world, this is a test of the tokenizer."}',
                  read(os.path.join(SERVER_API, "llamacpp-tokenize.response.json")))
    llamacpp_post(rec, "/tokenize", b'{"content": "Hello world", "with_pieces": true}',
                  read(os.path.join(SERVER_API, "llamacpp-tokenize-pieces.response.json")))
    llamacpp_post(rec, "/apply-template",
                  b'{"messages": [{"role": "user", "content": "Hello world"}]}',
                  read(os.path.join(SERVER_API, "llamacpp-apply-template.response.json")))
    llamacpp_get(rec, "/metrics", read(os.path.join(SERVER_API, "llamacpp-metrics.prom")),
                 b"text/plain; version=0.0.4")

    multi = read(os.path.join(REFERENCE, "llamacpp-completions-multitoken.sse"))
    rec = Recording("llamacpp-b4748-multitoken-events", """
# llama.cpp llama-server b4748: events that carry two tokens

Server: llama.cpp `llama-server`, build b4748, tiny random-weight model, `POST /v1/completions`
streamed at high temperature. One event can carry two tokens: an incomplete UTF-8 byte token is
held back and sent with the next one, so there are fewer text events than `completion_tokens`.
Count tokens from `usage`, not from events.

Close: a FIN 74 us after the terminal chunk (measured on this build).
""" + LLAMACPP_TIMING)
    llamacpp_stream(rec, "/v1/completions", body, multi, fin(74))
    llamacpp_get(rec, "/v1/models", models)

    rec = Recording("llamacpp-prompt-cache", """
# llama.cpp llama-server: the same prompt twice, uncached then cached

Server: llama.cpp `llama-server` (a build that reports `b0-unknown`), tiny random-weight model.
The same 200-word completion sent twice: both report `usage.prompt_tokens` 201 (BOS included);
the final chunk's `timings.prompt_n` (tokens actually prefilled) is 200, then 1: the prompt
cache served the rest. The two exchanges are served in turn, so a run of an even number of
requests has half of each.

Close: FIN 9 us after the terminal chunk (the close behaviour measured on build b4748).
""" + LLAMACPP_TIMING)
    cache_body = b'{"model":"tiny-llama","prompt":"(200 words)","max_tokens":3,"stream":true}'
    for name in ("uncached", "cached"):
        sse = read(os.path.join(REFERENCE, "llamacpp-completions-prompt-%s.sse" % name))
        llamacpp_stream(rec, "/v1/completions", cache_body, sse, fin(9))
    llamacpp_get(rec, "/v1/models", models)


def openai_chunks(model, cid, deltas, usage, role_chunk=True, extra=None):
    """A chat stream: optional role-only chunk, one chunk per delta (the last with
    finish_reason), a final `choices: []` chunk carrying usage, then [DONE]."""
    out = []
    def ev(choices, use=None):
        obj = {"id": cid, "object": "chat.completion.chunk", "created": 1733000000,
               "model": model, "choices": choices, "usage": use}
        return b"data: " + json.dumps(obj, separators=(",", ":")).encode() + b"\n\n"
    if role_chunk:
        out.append(ev([{"index": 0, "delta": {"role": "assistant", "content": ""},
                        "logprobs": None, "finish_reason": None}]))
    for k, delta in enumerate(deltas):
        last = k == len(deltas) - 1
        choice = {"index": 0, "delta": delta, "logprobs": None,
                  "finish_reason": "length" if last else None}
        choice.update(extra or {})
        out.append(ev([choice]))
    out.append(ev([], usage))
    out.append(b"data: [DONE]\n\n")
    return out


def uvicorn_stream_head():
    # uvicorn's head for a FastAPI StreamingResponse(media_type="text/event-stream").
    return (b"HTTP/1.1 200 OK\r\ndate: Sat, 05 Dec 2026 12:00:00 GMT\r\nserver: uvicorn\r\n"
            b"content-type: text/event-stream; charset=utf-8\r\n"
            b"transfer-encoding: chunked\r\n\r\n")


def uvicorn_json_head(status, reason, body):
    return (b"HTTP/1.1 %d %s\r\ndate: Sat, 05 Dec 2026 12:00:00 GMT\r\nserver: uvicorn\r\n"
            b"content-length: %d\r\ncontent-type: application/json\r\n\r\n"
            % (status, reason, len(body)))


SYNTHETIC_TIMING = """
Times: not measured: the first text 40 ms after the request, then one chunk every 8 ms (the
role-only chunk 1 ms after the request). Each chunk is one HTTP chunk and one read.
"""

# vLLM and SGLang write a chat stream's role-only chunk when the engine's first output arrives,
# in the same loop turn as the first token's delta, not when the request is admitted.
ENGINE_CHAT_TIMING = """
Times: not measured: the first text 40 ms after the request, then one chunk every 8 ms; the
role-only chunk 30 us before the first text: the server writes it in the same loop turn as the
first token (vLLM's `chat_completion_stream_generator` on the first output of its result
generator, SGLang's `_generate_chat_stream` on its first content), not when the request is
admitted. Each chunk is one HTTP chunk and one read.
"""

COMPLETIONS_TIMING = """
Times: not measured: the first text 40 ms after the request, then one chunk every 8 ms. Each
chunk is one HTTP chunk and one read.
"""

ROLE_WITH_FIRST_TOKEN = 40 * MS - 30 * US


def build_vllm():
    model = "meta-llama/Llama-3.1-8B-Instruct"
    words = ["Hello", "!", " How", " can", " I", " help", "?"]
    usage = {"prompt_tokens": 12, "total_tokens": 19, "completion_tokens": 7,
             "prompt_tokens_details": {"cached_tokens": 8}}
    evts = openai_chunks(model, "chatcmpl-1", [{"content": w} for w in words], usage)
    reads = [(ROLE_WITH_FIRST_TOKEN, chunk(evts[0]))] + sse_reads(evts[1:], 40 * MS, 8 * MS)
    # The usage chunk and [DONE] follow the last token at once (one loop turn in vLLM).
    reads[-3] = (reads[-4][0] + 100 * US, reads[-3][1])
    reads[-2] = (reads[-3][0] + 50 * US, reads[-2][1])
    reads[-1] = (reads[-2][0] + 20 * US, reads[-1][1])
    models = json.dumps({"object": "list", "data": [{
        "id": model, "object": "model", "created": 1733000000, "owned_by": "vllm",
        "root": model, "parent": None, "max_model_len": 8192}]},
        separators=(",", ":")).encode()
    rec = Recording("vllm-chat-cached-idle-close", """
# vLLM: a chat stream with cached tokens, and the idle keep-alive close

Built from vLLM's source, not captured. What each part follows:
- the stream: `vllm/entrypoints/openai/serving_chat.py` (`chat_completion_stream_generator`;
  `vllm/entrypoints/openai/chat_completion/serving.py` in newer releases): a role-only first
  chunk, one chunk per delta, `finish_reason` on the last, then with
  `stream_options.include_usage` a final chunk with `choices: []` and `usage`;
  `usage.prompt_tokens_details.cached_tokens` is there when the server runs with
  `--enable-prompt-tokens-details` and the count is not 0 (`if self.enable_prompt_tokens_details
  and num_cached_tokens:`). Here 8 of 12 prompt tokens were cached.
- `GET /v1/models`: `vllm/entrypoints/openai/serving_models.py` (`owned_by: "vllm"`,
  `max_model_len`).
- the head: uvicorn's, for FastAPI's `StreamingResponse` (`text/event-stream; charset=utf-8`).
- the close: uvicorn closes a keep-alive connection idle for 5 s
  (`TIMEOUT_KEEP_ALIVE = 5` in `vllm/entrypoints/openai/api_server.py`, passed to uvicorn as
  `timeout_keep_alive`): a FIN 5 s after the last byte unless a request comes first (`idle`).
""" + ENGINE_CHAT_TIMING)
    body = (b'{"model":"' + model.encode() + b'","messages":[{"role":"user","content":"Hi"}],'
            b'"max_tokens":7,"stream":true,"stream_options":{"include_usage":true}}')
    rec.add("POST", "/v1/chat/completions", body, uvicorn_stream_head(), reads,
            fin(5_000_000, idle=True))
    rec.add("GET", "/v1/models", b"", uvicorn_json_head(200, b"OK", models), [(500 * US, models)],
            fin(5_000_000, idle=True))

    # vllm-style completions with per-chunk usage (continuous_usage_stats).
    sse = read(os.path.join(REFERENCE, "vllm-style-completions-continuous-usage.sse"))
    rec = Recording("vllm-completions-continuous-usage", """
# vLLM: a completions stream with usage in every chunk

Built from vLLM's source, not captured: `vllm/entrypoints/openai/serving_completion.py`
(`completion_stream_generator`; `vllm/entrypoints/openai/completion/serving.py` in newer
releases). With `stream_options: {"include_usage": true, "continuous_usage_stats": true}`
every chunk carries the usage so far, and a chunk may carry several tokens (here " quick brown"
is two: completion_tokens goes 1, 3, 4, ...). The final `choices: []` usage chunk follows.
Head and close: uvicorn's, the idle close at 5 s (`TIMEOUT_KEEP_ALIVE`).
""" + COMPLETIONS_TIMING)
    body = (b'{"model":"' + model.encode() + b'","prompt":"The","max_tokens":8,"stream":true,'
            b'"stream_options":{"include_usage":true,"continuous_usage_stats":true}}')
    rec.add("POST", "/v1/completions", body, uvicorn_stream_head(),
            sse_reads(events(sse), 40 * MS, 8 * MS), fin(5_000_000, idle=True))

    # vLLM's error body: ErrorResponse{error: ErrorInfo}.
    error = json.dumps({"error": {
        "message": "This model's maximum context length is 8192 tokens. However, you requested "
                   "9000 tokens (8900 in the messages, 100 in the completion). Please reduce the "
                   "length of the messages or completion.",
        "type": "BadRequestError", "param": None, "code": 400}},
        separators=(",", ":")).encode()
    rec = Recording("vllm-error-context-length", """
# vLLM: a request refused with 400 before streaming

Built from vLLM's source, not captured: the body is `ErrorResponse` (`{"error": {"message",
"type", "param", "code"}}`, `vllm/entrypoints/openai/protocol.py`, classes `ErrorInfo` and
`ErrorResponse`), sent with its status as a JSON response even when the request asked to
stream (`create_error_response` in `vllm/entrypoints/openai/serving_engine.py`). The message is
the context-length one of `_validate_input`. Every request sent to this recording fails with an
HTTP 400: a client must count it failed and show the message.
Head: uvicorn's JSONResponse. The body arrives 2 ms after the request (not measured).
""")
    body = (b'{"model":"' + model.encode() + b'","prompt":"(8900 tokens)","max_tokens":100,'
            b'"stream":true}')
    rec.add("POST", "/v1/completions", body, uvicorn_json_head(400, b"Bad Request", error),
            [(2 * MS, error)])


def build_sglang():
    model = "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B"
    reasoning = ["Let", " me", " think", "."]
    answer = ["Yes", "."]
    deltas = ([{"role": None, "content": None, "reasoning_content": r, "tool_calls": None}
               for r in reasoning] +
              [{"role": None, "content": a, "reasoning_content": None, "tool_calls": None}
               for a in answer])
    usage = {"prompt_tokens": 9, "total_tokens": 15, "completion_tokens": 6,
             "prompt_tokens_details": {"cached_tokens": 4}}
    evts = openai_chunks(model, "a1", deltas, usage, extra={"matched_stop": None})
    reads = [(ROLE_WITH_FIRST_TOKEN, chunk(evts[0]))] + sse_reads(evts[1:], 40 * MS, 8 * MS)
    reads[-3] = (reads[-4][0] + 100 * US, reads[-3][1])
    reads[-2] = (reads[-3][0] + 50 * US, reads[-2][1])
    reads[-1] = (reads[-2][0] + 20 * US, reads[-1][1])
    rec = Recording("sglang-chat-reasoning-cached", """
# SGLang: a reasoning chat stream with cached tokens

Built from SGLang's source, not captured:
- the stream: `python/sglang/srt/entrypoints/openai/serving_chat.py` (`_generate_chat_stream`):
  a role-only first chunk, reasoning in `delta.reasoning_content` (with `--reasoning-parser`),
  then the answer in `delta.content`, `finish_reason` on the last; with
  `stream_options.include_usage` a final `choices: []` chunk with `usage`.
- `usage.prompt_tokens_details.cached_tokens`: `python/sglang/srt/entrypoints/openai/
  usage_processor.py` (`UsageProcessor.calculate_streaming_usage`), present when the server
  runs with `--enable-cache-report`. Here 4 of 9 prompt tokens were cached.
- the head and close: uvicorn's (SGLang serves with uvicorn; `timeout_keep_alive` 5 s): the
  idle close at 5 s.
""" + ENGINE_CHAT_TIMING)
    body = (b'{"model":"' + model.encode() + b'","messages":[{"role":"user","content":"Is it?"}],'
            b'"max_tokens":6,"stream":true,"stream_options":{"include_usage":true}}')
    rec.add("POST", "/v1/chat/completions", body, uvicorn_stream_head(), reads,
            fin(5_000_000, idle=True))

    error = json.dumps({"object": "error", "message": "Unsupported param: best_of",
                        "type": "BadRequestError", "param": None, "code": 400},
                       separators=(",", ":")).encode()
    rec = Recording("sglang-error-flat-body", """
# SGLang: a request refused with 400, its error body not nested

Built from SGLang's source, not captured: `ErrorResponse` in `python/sglang/srt/entrypoints/
openai/protocol.py` is flat (`{"object": "error", "message", "type", "param", "code"}`), made
by `create_error_response` in `python/sglang/srt/entrypoints/openai/serving_base.py`: unlike
OpenAI's and vLLM's, there is no `error` object around it. Every request sent to this recording
fails with an HTTP 400. Head: uvicorn's JSONResponse; the body 2 ms after the request (not
measured).
""")
    body = (b'{"model":"' + model.encode() + b'","messages":[{"role":"user","content":"Hi"}],'
            b'"max_tokens":8,"best_of":2,"stream":true}')
    rec.add("POST", "/v1/chat/completions", body, uvicorn_json_head(400, b"Bad Request", error),
            [(2 * MS, error)])


def compact(obj):
    return json.dumps(obj, separators=(",", ":")).encode()


def tail_reads(reads, gaps_us):
    """Moves the last reads to follow the one before each by gaps_us (oldest first): what a
    server writes in the same loop turn as the last token."""
    first = len(reads) - len(gaps_us)
    for k, gap in enumerate(gaps_us):
        reads[first + k] = (reads[first + k - 1][0] + gap * US, reads[first + k][1])
    return reads


def build_tgi():
    model = "meta-llama/Llama-3.1-8B-Instruct"
    fingerprint = "3.0.0-native"
    words = ["Hello", "!", " How", " can", " I", " help", "?"]
    def ev(obj):
        return b"data:" + compact(obj) + b"\n\n"  # axum's Sse: no space after the colon
    def token_chunk(text, finish):
        return {"object": "chat.completion.chunk", "id": "", "created": 1733000000,
                "model": model, "system_fingerprint": fingerprint,
                "choices": [{"index": 0, "delta": {"role": "assistant", "content": text},
                             "logprobs": None, "finish_reason": finish}],
                "usage": None}
    evts = [ev(token_chunk(w, "length" if k == len(words) - 1 else None))
            for k, w in enumerate(words)]
    evts.append(ev({"object": "chat.completion.chunk", "id": "", "created": 1733000000,
                    "model": model, "system_fingerprint": fingerprint, "choices": [],
                    "usage": {"prompt_tokens": 14, "completion_tokens": 7,
                              "total_tokens": 21}}))
    evts.append(b"data:[DONE]\n\n")
    reads = tail_reads(sse_reads(evts, 40 * MS, 8 * MS), [60, 20, 20])
    head = (b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n"
            b"transfer-encoding: chunked\r\ndate: Sat, 05 Dec 2026 12:00:00 GMT\r\n\r\n")
    info = compact({
        "model_id": model, "model_sha": None, "model_pipeline_tag": "text-generation",
        "max_concurrent_requests": 128, "max_best_of": 2, "max_stop_sequences": 4,
        "max_input_tokens": 4095, "max_total_tokens": 4096, "validation_workers": 2,
        "max_client_batch_size": 4, "router": "text-generation-router", "version": "3.0.0",
        "sha": None, "docker_label": None})
    rec = Recording("tgi-chat-usage", """
# TGI (text-generation-inference): a chat stream with its usage chunk, and GET /info

Built from TGI's source, not captured:
- the stream: `router/src/server.rs` (`chat_completions`) and `router/src/chat.rs`
  (`ChatState::push`, `create_event_from_stream_token`): every token its own event, each delta
  with `role: "assistant"` (no role-only first chunk), `id` empty, `usage: null`, the last
  token's chunk with `finish_reason`; with `stream_options.include_usage` one more chunk with
  `choices: []` and `usage` (`prompt_tokens` is the request's `input_length`), then `[DONE]`.
  Events are written by axum's `Sse`: `data:` with no space before the JSON.
- `GET /info`: the router's `Info` (`router/src/server.rs`, `router/src/lib.rs`): `model_id`,
  `max_total_tokens`, `router: "text-generation-router"`, `version`. The version here is
  illustrative.
- the head: axum's `Sse` (`content-type: text/event-stream`, `cache-control: no-cache`),
  chunked; hyper keeps the connection open (no idle close is configured).

Times: not measured: the first text 40 ms after the request, then one chunk every 8 ms; the
usage chunk and `[DONE]` follow the last token at once (60 and 20 us). Each chunk is one HTTP
chunk and one read.
""")
    body = (b'{"model":"tgi","messages":[{"role":"user","content":"Hi"}],"max_tokens":7,'
            b'"stream":true,"stream_options":{"include_usage":true}}')
    rec.add("POST", "/v1/chat/completions", body, head, reads)
    rec.add("GET", "/info", b"", (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                                  b"content-length: %d\r\n\r\n" % len(info)),
            [(500 * US, info)])


def build_tgi_error():
    error = compact({
        "error": "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. "
                 "Given: 4000 `inputs` tokens and 200 `max_new_tokens`",
        "error_type": "validation"})
    evts = [b"data:" + error + b"\n\n", b"data:[DONE]\n\n"]
    head = (b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n"
            b"transfer-encoding: chunked\r\ndate: Sat, 05 Dec 2026 12:00:00 GMT\r\n\r\n")
    rec = Recording("tgi-error-in-stream", """
# TGI: a streamed request refused after its 200, the error an event of the stream

Built from TGI's source, not captured: a streamed request is validated inside its stream
(`router/src/server.rs`, `generate_stream_internal`: `infer.generate_stream` runs in the
`async_stream`), so the response is already `200 OK` when validation refuses it; the refusal
comes as an event, `impl From<InferError> for Event`: `{"error": MESSAGE, "error_type":
"validation"}`, and the chat stream still ends with `[DONE]` (`chat_completions` chains it after
the stream). The message is `ValidationError::MaxTotalTokens`'s. Every request sent to this
recording fails though its status is 200: a client must count it failed, not completed.
Head as tgi-chat-usage. Times: not measured: the error 2 ms after the request, `[DONE]` 20 us
later, the terminal chunk 20 us after that.
""")
    body = (b'{"model":"tgi","messages":[{"role":"user","content":"(4000 tokens)"}],'
            b'"max_tokens":200,"stream":true}')
    rec.add("POST", "/v1/chat/completions", body, head, sse_reads(evts, 2 * MS, 20 * US))


def go_stream_head():
    # Go's net/http for a handler that set Content-Type and flushes (gin's c.Stream): header
    # names canonical and sorted, chunked.
    return (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            b"Date: Sat, 05 Dec 2026 12:00:00 GMT\r\nTransfer-Encoding: chunked\r\n\r\n")


def go_json_head(body):
    return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\n"
            b"Date: Sat, 05 Dec 2026 12:00:00 GMT\r\nContent-Length: %d\r\n\r\n" % len(body))


OLLAMA_SOURCE = """
Built from Ollama's source, not captured:
- the stream: `middleware/openai.go` (`ChatWriter.writeResponse`, `CompleteWriter.
  writeResponse`) and `openai/openai.go` (`ToChunk`, `ToCompleteChunk`, `ToUsage`): `data: `
  then the JSON, `id` `chatcmpl-N` / `cmpl-N`, `system_fingerprint: "fp_ollama"`. The model's
  responses reach the writer one at a time through gin's `c.Stream` (`server/routes.go`,
  `streamResponse`), which flushes after each: one HTTP chunk per response. The last response
  (`done`) is written as its chunk (empty text, `finish_reason`), then, with
  `stream_options.include_usage`, the same chunk with `choices: []` and `usage`, then
  `data: [DONE]`: three events in one HTTP chunk, one read.
- `GET /api/version` (`server/routes.go`, `{"version"}`; the version here is illustrative) and
  `GET /v1/models` (`openai.ToListCompletion`: `owned_by` is the model name's namespace,
  `library`).
- the head: Go's `net/http`; the server sets no idle timeout, so the connection stays open.
"""


def ollama_recording(name, title, path, body, evts, extra=""):
    models = compact({"object": "list", "data": [{
        "id": "llama3.2:latest", "object": "model", "created": 1733000000,
        "owned_by": "library"}]})
    version = compact({"version": "0.9.0"})
    rec = Recording(name, "# Ollama: " + title + "\n" + OLLAMA_SOURCE + extra + """
Times: not measured: the first text 40 ms after the request, then one response every 8 ms;
the terminal chunk 20 us after the last.
""")
    reads = [(40 * MS + k * 8 * MS, chunk(e)) for k, e in enumerate(evts)]
    reads.append((reads[-1][0] + 20 * US, b"0\r\n\r\n"))
    rec.add("POST", path, body, go_stream_head(), reads)
    rec.add("GET", "/v1/models", b"", go_json_head(models), [(300 * US, models)])
    rec.add("GET", "/api/version", b"", go_json_head(version), [(300 * US, version)])


def build_ollama():
    model = "llama3.2:latest"
    words = ["Hello", "!", " How", " can", " I", " help", "?"]
    usage = {"prompt_tokens": 27, "completion_tokens": 8, "total_tokens": 35}
    def chat_chunk(text, finish, use=None):
        obj = {"id": "chatcmpl-517", "object": "chat.completion.chunk", "created": 1733000000,
               "model": model, "system_fingerprint": "fp_ollama",
               "choices": [{"index": 0, "delta": {"role": "assistant", "content": text},
                            "finish_reason": finish}]}
        if use is not None:
            obj["choices"] = []
            obj["usage"] = use
        return b"data: " + compact(obj) + b"\n\n"
    evts = [chat_chunk(w, None) for w in words]
    evts.append(chat_chunk("", "stop") + chat_chunk("", "stop", usage) + b"data: [DONE]\n\n")
    body = (b'{"model":"llama3.2:latest","messages":[{"role":"user","content":"Hi"}],'
            b'"max_tokens":16,"stream":true,"stream_options":{"include_usage":true}}')
    ollama_recording("ollama-chat-usage", "a chat stream, its end and usage in one read",
                     "/v1/chat/completions", body, evts, """
Seven text events, then the `done` response (`eval_count` 8: the end-of-sequence token counts,
as llama.cpp's runner reports it) carrying no text.
""")

    zero = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
    def completion_chunk(text, finish, use):
        obj = {"id": "cmpl-233", "object": "text_completion", "created": 1733000000,
               "choices": [{"text": text, "index": 0, "finish_reason": finish}],
               "model": model, "system_fingerprint": "fp_ollama", "usage": use}
        if finish == "usage":
            obj["choices"] = []
        return b"data: " + compact(obj) + b"\n\n"
    evts = [completion_chunk(w, None, zero) for w in words]
    evts.append(completion_chunk("", "stop", zero) + completion_chunk("", "usage", usage) +
                b"data: [DONE]\n\n")
    body = (b'{"model":"llama3.2:latest","prompt":"The","max_tokens":16,"stream":true,'
            b'"stream_options":{"include_usage":true}}')
    ollama_recording("ollama-completions-zero-usage",
                     "a completions stream whose every chunk reports zero usage",
                     "/v1/completions", body, evts, """
With `stream_options.include_usage`, `CompleteWriter` gives every chunk `usage` with all three
counts 0 (`c.Usage = &openai.Usage{}`), not null and not the counts so far: a client must not
read them as per-chunk usage (vLLM's `continuous_usage_stats`). The real counts arrive in the
`choices: []` chunk at the end.
""")


def openai_head():
    # The headers OpenAI documents on every API response (API reference, "Debugging requests").
    return (b"HTTP/1.1 200 OK\r\nDate: Sat, 05 Dec 2026 12:00:00 GMT\r\n"
            b"Content-Type: text/event-stream; charset=utf-8\r\nTransfer-Encoding: chunked\r\n"
            b"Connection: keep-alive\r\nopenai-organization: user-example\r\n"
            b"openai-processing-ms: 131\r\nopenai-version: 2020-10-01\r\n"
            b"x-request-id: req_5f2c0e1b7a9d4c3e8f6a1b2c3d4e5f60\r\n\r\n")


def build_openai():
    model = "gpt-4o-mini-2024-07-18"
    words = ["Hello", "!", " How", " can", " I", " help", "?"]
    def ev(choices, use, pad):
        obj = {"id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG", "object": "chat.completion.chunk",
               "created": 1741570283, "model": model, "service_tier": "default",
               "system_fingerprint": "fp_06737a9306", "choices": choices, "usage": use,
               "obfuscation": pad}
        return b"data: " + compact(obj) + b"\n\n"
    def choice(delta, finish=None):
        return [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]
    usage = {"prompt_tokens": 1200, "completion_tokens": 7, "total_tokens": 1207,
             "prompt_tokens_details": {"cached_tokens": 1024, "audio_tokens": 0},
             "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0,
                                           "accepted_prediction_tokens": 0,
                                           "rejected_prediction_tokens": 0}}
    evts = [ev(choice({"role": "assistant", "content": "", "refusal": None}), None, "Xq3")]
    evts += [ev(choice({"content": w}), None, "k9fJ2"[:5 - len(w) % 5]) for w in words]
    evts.append(ev(choice({}, "stop"), None, "T7pQ"))
    evts.append(ev([], usage, "mZ"))
    evts.append(b"data: [DONE]\n\n")
    reads = [(1 * MS, chunk(evts[0]))] + sse_reads(evts[1:], 40 * MS, 8 * MS)
    reads = tail_reads(reads, [100, 50, 20, 20])
    rec = Recording("openai-chat-usage-cached", """
# OpenAI: a chat stream with its usage chunk and a prompt-cache hit

Built from OpenAI's API reference, not captured (no key is used here):
- the stream: the chat completion chunk object (https://platform.openai.com/docs/api-reference/
  chat-streaming): a first chunk with `role` and empty `content` (and `refusal: null`), one chunk
  per delta, an empty `delta` with `finish_reason`, then with `stream_options.include_usage` a
  chunk with `choices: []` and `usage`, every other chunk carrying `usage: null`; `service_tier`,
  `system_fingerprint`, and `obfuscation` (random characters that pad each event,
  `stream_options.include_obfuscation`, on by default), then `data: [DONE]`.
- the usage: `prompt_tokens_details.cached_tokens` (prompt caching guide: prompts of 1,024 tokens
  or more, cached in steps of 128; here 1,024 of 1,200) and `completion_tokens_details`.
- the head: the headers the API reference documents on every response (`openai-organization`,
  `openai-processing-ms`, `openai-version`, `x-request-id`); the connection kept open.
""" + SYNTHETIC_TIMING + """The finish chunk, the usage chunk and `[DONE]` follow the last token
at once (100, 50 and 20 us).
""")
    body = (b'{"model":"gpt-4o-mini","messages":[{"role":"user","content":"(1,200 tokens)"}],'
            b'"max_tokens":7,"stream":true,"stream_options":{"include_usage":true}}')
    rec.add("POST", "/v1/chat/completions", body, openai_head(), reads)

    sse = read(os.path.join(REFERENCE, "responses", "openai-text.sse"))
    evts = events(sse)
    reads = [(1 * MS + k * 100 * US, chunk(e)) for k, e in enumerate(evts[:4])]
    reads += [(40 * MS + k * 8 * MS, chunk(e)) for k, e in enumerate(evts[4:8])]
    reads += [(reads[-1][0] + (k + 1) * 50 * US, chunk(e)) for k, e in enumerate(evts[8:])]
    reads.append((reads[-1][0] + 20 * US, b"0\r\n\r\n"))
    rec = Recording("openai-responses-text", """
# OpenAI: a Responses API stream

Built from OpenAI's streaming events reference, not captured: the body is
`../reference/responses/openai-text.sse` (https://platform.openai.com/docs/api-reference/
responses-streaming): `event: TYPE` and `data: {"type": TYPE, ...}` for `response.created`,
`response.in_progress`, `response.output_item.added`, `response.content_part.added`, four
`response.output_text.delta`s, the `*.done` events and `response.completed`, whose
`response.usage` holds `input_tokens` 37 and `output_tokens` 6. No `[DONE]`. Head as
openai-chat-usage-cached.

Times: not measured: the four bookkeeping events 1 ms after the request, 0.1 ms apart; the
first text 40 ms after the request, then one every 8 ms; the closing events 50 us apart. Each
event is one HTTP chunk and one read.
""")
    body = (b'{"model":"gpt-4.1","input":[{"role":"user","content":"Hi"}],'
            b'"max_output_tokens":16,"stream":true}')
    rec.add("POST", "/v1/responses", body, openai_head(), reads)


if __name__ == "__main__":
    build_llamacpp()
    build_vllm()
    build_sglang()
    build_tgi()
    build_tgi_error()
    build_ollama()
    build_openai()
