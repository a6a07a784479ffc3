#pragma once
// Internal to the workload module: the prompt source of --trace-format weka.
#include <memory>

#include "bench/workload/prompt_source.hpp"

namespace bench::workload {

std::unique_ptr<PromptSource> agent_trace_source(const DatasetOptions& options,
                                                 const TokenLengths& tokens);

}  // namespace bench::workload
