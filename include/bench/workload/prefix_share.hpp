#pragma once
// --prefix-share S (a list sweeps it): the cache-hit share as a workload knob. Every request of
// a point starts with one system prompt that every other request of that point sends too (as
// agents share a system prompt and a tool list), of round(S x --input-len) words (tokens with a
// tokenizer); the rest of its --input-len is its own fresh text. A server whose prefix cache
// holds that system prompt serves share S of each prompt from cache: the share asked. What it
// did serve (usage's cached_tokens) is measured apart, and the two are shown side by side.
//
// Each point (and each repeat) has its own system prompt, seeded by its prompt stream, so no
// point finds an earlier point's prefix in the cache. SGLang's controlled cache-hit benchmark
// (sgl-project/sglang#37359) primes the prefix before measuring, else the first requests race
// to fill the cache: bench does the same with one request before each point
// (app/run/prime_prefix.hpp).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/workload/prompt_source.hpp"

namespace bench::workload {

/// Words (tokens) of the shared system prompt at `share` of `input_len`: round(share x
/// input_len). The caller has made sure at least one is left for a request's own text.
std::int64_t shared_prefix_len(double share, std::int64_t input_len);

/// The request index of a stream whose prompt primes the point's prefix: the stream's last,
/// which no point reaches; its prompt is the point's system prompt and a question of its own.
inline constexpr std::uint64_t kPrimeRequest = (std::uint64_t{1} << kStreamBits) - 1;

/// The random dataset's prompts, each made round(S x input_len) shorter and sent after the
/// point's system prompt of that length (Prompt::system_text; input_len counts both).
/// `options.prefix_shares` holds one share a point; open_prompt_source calls this for them.
std::unique_ptr<PromptSource> prefix_share_source(const DatasetOptions& options,
                                                  const TokenLengths& tokens);

}  // namespace bench::workload
