#pragma once
// A trace row's prompt, made on demand. The trace gives each request's lengths (and, for
// Mooncake, its prefix blocks); the seed gives the words:
//   - Mooncake: the prompt is its hash ids' blocks in order, block i the text of hash id i
//     (kTraceBlockTokens words, or tokens with a tokenizer; the last block holds what is left of
//     input_length, so a block may be cut short). A block's text depends only on the seed, the
//     prompt stream and its hash id, so requests with equal ids at equal positions share exactly
//     those blocks as a prefix, and no more: each block begins with a number made of its stream and
//     hash id. Input beyond
//     the blocks (input_length > 512 x ids) is the request's own text.
//   - Azure, BurstGPT (no ids): a random prompt of the row's input length (random_prompts.hpp),
//     beginning with the request's number, so no two share a prefix.
// Each prompt stream (a sweep's point, a repeat) has its own blocks: a replay never resends
// another point's prompts.
#include <cstdint>
#include <vector>

#include "bench/workload/prompt.hpp"
#include "bench/workload/token_prompts.hpp"
#include "bench/workload/trace.hpp"

namespace bench::workload {

/// Request `request` (0-based, its row of the trace) of stream `stream`: text as above,
/// input_len the row's, output_len its output length. With a tokenizer, each block and the
/// request's own text are made exactly their length in tokens (token_prompts.hpp), and
/// client_tokens is the count of the whole text as sent (joining blocks can move it by a token
/// or so at a seam; the report shows any difference).
Prompt trace_prompt(const TraceRow& row, const std::vector<std::int64_t>& hash_ids,
                    std::uint64_t seed, std::uint64_t stream, std::uint64_t request,
                    const TokenLengths& tokens);

}  // namespace bench::workload
