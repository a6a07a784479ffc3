#pragma once
// What a run writes and prints for the scripts written for vLLM's and SGLang's clients
// (results/peer_results.hpp): vLLM's result file per measurement, SGLang's JSONL line in place
// of bench's --output-file JSON, vLLM's summary block after the text report.
#include <ostream>
#include <string>

#include "bench/app/run/run_stages.hpp"

namespace bench::app {

/// vLLM's result file of each measurement (each point, each repeat) with --save-result or
/// --append-result; false when one could not be written (said on `err`). One path given to
/// several measurements (--result-filename with a sweep) gets each appended, as --append-result.
bool write_vllm_files(const OutputPlan& output, const RunResults& run, std::ostream& err);

/// SGLang's --output-file: one line per measurement appended to `output.output_file`, whole or
/// not at all. Throws std::runtime_error naming the file when it cannot be read or written.
void append_sglang_lines(const OutputPlan& output, const RunResults& run);

/// vLLM's "Serving Benchmark Result" block of each measurement when output.peer_results asks
/// for it; empty otherwise.
std::string vllm_summaries(const OutputPlan& output, const RunResults& run);

}  // namespace bench::app
