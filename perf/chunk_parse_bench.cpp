// Chunks per second through each stage of the per-chunk path, old (nlohmann DOM) and new
// (scanner), on the chunk shapes real servers stream. Google Benchmark's items_per_second is
// chunks/s; allocs_per_chunk counts operator new calls per chunk.
//
//   cmake -S . -B build-perf -G Ninja -DCMAKE_BUILD_TYPE=Release -DBENCH_PERF=ON
//   cmake --build build-perf --target chunk_parse_bench && build-perf/perf/chunk_parse_bench
//
// docs/performance.md records the figures.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "bench/metrics/request_record.hpp"
#include "bench/protocol/chunk_scanner.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "bench/sse/parser.hpp"

// Every heap allocation of the process is counted, to show which stage allocates per chunk.
// A replaced global operator new can only count into a global; nothing else is global here.
namespace {
std::atomic<std::uint64_t> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* pointer = std::malloc(size == 0 ? 1 : size)) return pointer;
  throw std::bad_alloc();
}
void operator delete(void* pointer) noexcept { std::free(pointer); }
void operator delete(void* pointer, std::size_t) noexcept { std::free(pointer); }

namespace {

using bench::protocol::Chunk;

// One text chunk in the shape of each server family (ids as long as theirs: they are what
// defeats the small-string buffer).
const std::vector<std::string>& realistic_chunks() {
  static const std::vector<std::string> chunks = {
      // vLLM chat
      R"({"id":"chatcmpl-8f2c1d0e9b7a4c3e8d6f5a4b3c2d1e0f","object":"chat.completion.chunk",)"
      R"("created":1733000000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,)"
      R"("delta":{"content":" world"},"logprobs":null,"finish_reason":null}],"usage":null})",
      // vLLM completions with continuous_usage_stats
      R"({"id":"cmpl-3b1f0a9e8d7c4b6a9f8e7d6c5b4a3f2e","object":"text_completion",)"
      R"("created":1733000000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,)"
      R"("text":" quick","logprobs":null,"finish_reason":null,"stop_reason":null}],"usage":)"
      R"({"prompt_tokens":1024,"total_tokens":1031,"completion_tokens":7}})",
      // SGLang chat with a reasoning delta
      R"({"id":"5e0c9f8b7a6d4e3f2a1b0c9d8e7f6a5b","object":"chat.completion.chunk",)"
      R"("created":1733000000,"model":"deepseek-r1","choices":[{"index":0,"delta":{"role":null,)"
      R"("content":null,"reasoning_content":" think","tool_calls":null},"logprobs":null,)"
      R"("finish_reason":null,"matched_stop":null}],"usage":null})",
      // llama.cpp chat
      R"({"choices":[{"finish_reason":null,"index":0,"delta":{"content":" alten"}}],)"
      R"("created":1796228222,"id":"chatcmpl-GanGjApuRUHIi4YisFS1MV7mgW5E21Pf","model":)"
      R"("tiny-llama","system_fingerprint":"b4748-c392e5094","object":"chat.completion.chunk"})",
  };
  return chunks;
}

// One whole response body: a role chunk, `tokens` vLLM chat text chunks, the finish chunk, the
// usage chunk and [DONE], framed as vLLM frames them.
std::string vllm_stream_body(int tokens) {
  const std::string head =
      R"(data: {"id":"chatcmpl-8f2c1d0e9b7a4c3e8d6f5a4b3c2d1e0f","object":"chat.completion.chunk",)"
      R"("created":1733000000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,)";
  std::string body = head + R"("delta":{"role":"assistant","content":""},"logprobs":null,)"
                            R"("finish_reason":null}],"usage":null})"
                            "\n\n";
  for (int i = 0; i < tokens; ++i) {
    body += head + R"("delta":{"content":" tok)" + std::to_string(i % 100) +
            R"("},"logprobs":null,"finish_reason":)" + (i + 1 == tokens ? "\"length\"" : "null") +
            R"(}],"usage":null})"
            "\n\n";
  }
  body += R"(data: {"id":"chatcmpl-8f2c1d0e9b7a4c3e8d6f5a4b3c2d1e0f","object":)"
          R"("chat.completion.chunk","created":1733000000,"model":"m","choices":[],"usage":)"
          R"({"prompt_tokens":1024,"total_tokens":)" +
          std::to_string(1024 + tokens) + R"(,"completion_tokens":)" + std::to_string(tokens) +
          "}}\n\ndata: [DONE]\n\n";
  return body;
}

constexpr int kStreamTokens = 256;
constexpr std::size_t kReadBytes = 16 << 10;  // one socket read: curl's default buffer

void report(benchmark::State& state, std::int64_t chunks, std::uint64_t allocations_before) {
  state.SetItemsProcessed(chunks);
  const std::uint64_t allocations = g_allocations.load() - allocations_before;
  state.counters["allocs_per_chunk"] =
      static_cast<double>(allocations) / static_cast<double>(chunks > 0 ? chunks : 1);
}

// --- one payload at a time ----------------------------------------------------------------------

void BM_InterpretChunk_Dom(benchmark::State& state) {
  const auto& chunks = realistic_chunks();
  std::size_t next = 0;
  const std::uint64_t before = g_allocations.load();
  for (auto _ : state) {
    Chunk chunk = bench::protocol::interpret_chunk_dom(chunks[next]);
    benchmark::DoNotOptimize(chunk);
    next = next + 1 == chunks.size() ? 0 : next + 1;
  }
  report(state, state.iterations(), before);
}
BENCHMARK(BM_InterpretChunk_Dom);

void BM_InterpretChunk_Scanner(benchmark::State& state) {
  const auto& chunks = realistic_chunks();
  std::size_t next = 0;
  const std::uint64_t before = g_allocations.load();
  for (auto _ : state) {
    Chunk chunk = bench::protocol::interpret_chunk(chunks[next]);
    benchmark::DoNotOptimize(chunk);
    next = next + 1 == chunks.size() ? 0 : next + 1;
  }
  report(state, state.iterations(), before);
}
BENCHMARK(BM_InterpretChunk_Scanner);

void BM_InterpretChunkInto_ReusedChunk(benchmark::State& state) {
  const auto& chunks = realistic_chunks();
  std::size_t next = 0;
  Chunk chunk;
  const std::uint64_t before = g_allocations.load();
  for (auto _ : state) {
    bench::protocol::interpret_chunk_into(chunks[next], chunk);
    benchmark::DoNotOptimize(chunk);
    next = next + 1 == chunks.size() ? 0 : next + 1;
  }
  report(state, state.iterations(), before);
}
BENCHMARK(BM_InterpretChunkInto_ReusedChunk);

// --- whole streams: SSE framing, then each interpretation ---------------------------------------

enum class Interpretation { none, dom, scanner, scanner_reused_chunk };

class InterpretingSink final : public bench::sse::Sink {
 public:
  explicit InterpretingSink(Interpretation interpretation) : interpretation_(interpretation) {}
  bool on_event(const bench::sse::Event& event) override {
    ++events;
    if (interpretation_ == Interpretation::dom) {
      benchmark::DoNotOptimize(bench::protocol::interpret_chunk_dom(event.data));
    } else if (interpretation_ == Interpretation::scanner) {
      benchmark::DoNotOptimize(bench::protocol::interpret_chunk(event.data));
    } else if (interpretation_ == Interpretation::scanner_reused_chunk) {
      bench::protocol::interpret_chunk_into(event.data, chunk_);
      benchmark::DoNotOptimize(chunk_);
    } else {
      benchmark::DoNotOptimize(event.data.data());
    }
    return true;
  }
  std::int64_t events = 0;

 private:
  Interpretation interpretation_;
  Chunk chunk_;  // what StreamReader could keep across events (docs/performance.md)
};

void feed_stream(benchmark::State& state, Interpretation interpretation) {
  const std::string body = vllm_stream_body(kStreamTokens);
  bench::sse::Parser parser;
  std::int64_t events = 0;
  const std::uint64_t before = g_allocations.load();
  for (auto _ : state) {
    parser.reset();
    InterpretingSink sink(interpretation);
    for (std::size_t at = 0; at < body.size(); at += kReadBytes) {
      parser.feed(std::string_view(body).substr(at, kReadBytes), sink);
    }
    events += sink.events;
  }
  report(state, events, before);
}

void BM_Stream_SseOnly(benchmark::State& state) { feed_stream(state, Interpretation::none); }
void BM_Stream_SseAndDom(benchmark::State& state) { feed_stream(state, Interpretation::dom); }
void BM_Stream_SseAndScanner(benchmark::State& state) {
  feed_stream(state, Interpretation::scanner);
}
void BM_Stream_SseAndScannerReusedChunk(benchmark::State& state) {
  feed_stream(state, Interpretation::scanner_reused_chunk);
}
BENCHMARK(BM_Stream_SseOnly);
BENCHMARK(BM_Stream_SseAndDom);
BENCHMARK(BM_Stream_SseAndScanner);
BENCHMARK(BM_Stream_SseAndScannerReusedChunk);

// The real per-response path: StreamReader from headers to finish, into a RequestRecord. The
// reads are `state.range(0)` bytes, from one chunk per read (a slow server) to curl's 16 KiB.
void BM_StreamReader(benchmark::State& state) {
  const std::string body = vllm_stream_body(kStreamTokens);
  const auto read_bytes = static_cast<std::size_t>(state.range(0));
  bench::protocol::StreamReader reader;
  std::int64_t events = 0;
  const std::uint64_t before = g_allocations.load();
  for (auto _ : state) {
    bench::metrics::RequestRecord record;
    reader.begin(&record);
    reader.on_headers(200, "text/event-stream");
    std::int64_t stamp_ns = 0;
    for (std::size_t at = 0; at < body.size(); at += read_bytes) {
      reader.on_body(std::string_view(body).substr(at, read_bytes), stamp_ns += 1000);
    }
    reader.finish({bench::metrics::ErrorClass::none, "", stamp_ns});
    if (!record.ok()) state.SkipWithError("the benchmark stream did not read as a success");
    events += kStreamTokens + 3;  // the role chunk, the usage chunk and [DONE] are events too
    benchmark::DoNotOptimize(record);
  }
  report(state, events, before);
}
BENCHMARK(BM_StreamReader)->Arg(300)->Arg(static_cast<std::int64_t>(kReadBytes));

}  // namespace

BENCHMARK_MAIN();
