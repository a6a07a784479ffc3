#pragma once
// The "jsonl" dataset: one request a line, your own prompts.
//   {"prompt": "Explain RAID 5 in two sentences."}
//   {"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}],
//    "max_tokens": 64}
// "prompt" is a non-empty string; "messages" a non-empty list of chat messages, each with a
// string "role" and a "content" that is a string, a list of OpenAI content parts, or null;
// exactly one of the two. "max_tokens" (a positive integer, optional) is that request's
// output length; without it --output-len applies. Other keys are ignored. Blank lines are
// skipped. vLLM's "custom" dataset reads the same {"prompt": ...} lines (and applies the
// model's chat template client-side, which bench does not: it sends the prompt as the user
// message, or the messages as given).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/workload/dataset.hpp"
#include "bench/workload/prompt.hpp"

namespace bench::workload {

struct JsonlDataset {
  std::vector<Prompt> prompts;  // options.count of them (sampling.hpp's fit_to_count)
  std::size_t requests = 0;     // request lines in the file
  std::size_t lines = 0;        // lines in the file, blank ones included
};

/// One line as a request. Throws DatasetError(path, line_number, what is wrong): not JSON
/// (with the column), not an object, neither or both of prompt/messages, a wrong type or an
/// empty value, a bad max_tokens.
Prompt parse_jsonl_request(std::string_view line, const std::string& path,
                           std::size_t line_number, std::int64_t default_output_len);

/// Reads every line (a whole bad file fails on its first bad line), then shuffles with the
/// seed (unless options.shuffle is off; vLLM's custom dataset shuffles too) and takes
/// options.count requests (nullopt: every line's request once), oversampling as vLLM does when
/// there are fewer. output_len is for lines without "max_tokens".
/// Throws DatasetError naming the file when it cannot be read or holds no request, and
/// naming file and line for a bad line; std::invalid_argument for output_len < 1.
JsonlDataset load_jsonl(const DatasetOptions& options);

}  // namespace bench::workload
