#pragma once
// The same simulated workload run against one endpoint, with its request log and the
// simulator's truth log: for the tests that hold one endpoint's figures against another's.
#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/sim/sim_server.hpp"
#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"

namespace bench::testing {

struct EndpointRun {
  ProcessResult process;
  nlohmann::json results;
  std::vector<nlohmann::json> requests;         // by index
  std::map<std::string, nlohmann::json> truth;  // by response id
};

// The same simulated workload against one endpoint: a reasoning model that answers some
// requests with a tool call, a prefix cache, one request at a time so that every request gets
// the same draws whatever the endpoint (no probe before the run takes one: chat's per-chunk usage
// probe is off).
inline EndpointRun run_endpoint(const std::string& endpoint,
                                const std::vector<std::string>& extra) {
  TempDir dir;
  const std::string trace_path = dir.file("trace.jsonl");
  const std::string requests_path = dir.file("requests.jsonl");
  const std::string tools_path = dir.file("tools.json");
  std::ofstream(tools_path)
      << R"([{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}}])";
  EndpointRun run;
  {
    bench::sim::SimOptions options;
    options.ttft_ms = 30;
    options.tpot_ms = 4;
    options.reasoning_tokens = 3;
    options.reasoning_fraction = 0.5;
    options.tool_call_fraction = 0.5;
    options.prefix_cache = true;
    options.trace_path = trace_path;
    bench::sim::SimServer server(options);
    std::vector<std::string> args = {"--base-url",
                                     server.base_url(),
                                     "--endpoint",
                                     endpoint,
                                     "--concurrency",
                                     "1",
                                     "--num-prompts",
                                     "12",
                                     "--input-len",
                                     "24",
                                     "--output-len",
                                     "8",
                                     "--ignore-eos",
                                     "--seed",
                                     "11",
                                     "--per-chunk-usage",
                                     "off",
                                     "--tools",
                                     tools_path,
                                     "--save-requests",
                                     requests_path,
                                     "--output-format",
                                     "json",
                                     "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    run.process = run_process(BENCH_BINARY, without_answer_check(args));
  }  // the server is gone: its truth log is complete
  if (run.process.exit_code != 0) return run;
  run.results = nlohmann::json::parse(run.process.out);
  run.requests = read_jsonl(requests_path);
  std::sort(run.requests.begin(), run.requests.end(),
            [](const nlohmann::json& a, const nlohmann::json& b) {
              return a["index"].get<std::int64_t>() < b["index"].get<std::int64_t>();
            });
  for (nlohmann::json& record : read_jsonl(trace_path))
    run.truth[record["id"].get<std::string>()] = record;
  return run;
}

}  // namespace bench::testing
