-- wrk's raw-HTTP ceiling for perf/run: the same streamed completion request bench sends, with
-- no parsing at all. The response length is read from the environment (WRK_OUTPUT_LEN).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"model":"sim","prompt":"hello world","max_tokens":' ..
  (os.getenv("WRK_OUTPUT_LEN") or "256") .. ',"ignore_eos":true,"stream":true}'
