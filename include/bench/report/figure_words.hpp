#pragma once
// Words for figures results/ computes that are no section of their own: the text and HTML
// reports say them on one line each. results/ keeps the values (image_split.hpp, efficiency.hpp,
// writer.hpp's cached share and sharing intent); these say them for people.
#include <cstdint>
#include <string>

#include "bench/metrics/run_summary.hpp"
#include "bench/results/image_split.hpp"
#include "bench/results/writer.hpp"

namespace bench::report {

/// "1234 tokens a request (usage), of which text 200 (tokenizer), images ~1034 by difference
/// (estimate)", with "unknown" and why for what is not known.
std::string image_input_split_line(const results::ImageInputSplit& split);

/// Why the GPUs' energy figures are unknown, one line ("no GPU energy counter was scraped ..."),
/// or "" when they are known (results/efficiency.hpp).
std::string energy_unknown_reason(const results::RunContext& context);

/// Whether the server disclosed cached prompt tokens and, when it did, the cached share
/// ("server disclosed cached tokens on all requests: 0.0% cached"), and why sharing was meant
/// when it was (results::sharing_intent).
std::string prompt_cache_note(const metrics::RunSummary& summary,
                              const results::RunContext& context);

/// What the latency figures hold of the requests sent with "stream": false (--no-stream), one
/// line: that none was streamed (so TTFT, ITL, ICL and TPOT do not exist), or how many were not
/// (those figures are the others'); "" when every completed request was streamed.
std::string not_streamed_line(std::int64_t not_streamed, std::int64_t completed);

}  // namespace bench::report
