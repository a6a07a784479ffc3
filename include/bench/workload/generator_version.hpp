#pragma once
// The version of the prompts a seed gives. Bumped whenever the same options and seed would
// produce different prompts (text, lengths or order), so a workload fingerprint made by an
// older bench does not pass for this one's.
//   1  the prompts before the seeded prompt source
//   2  the seeded prompt source (one stream per point, repeat and shard)
//   3  SplitMix64 draws instead of std::mt19937_64's (an engine per prompt costs nothing)
//   4  a weka trace's block and tail texts begin with "k" and their key (exact in a tokenizer's
//      tokens wherever they stand: agent_block_text.hpp)
namespace bench::workload {

inline constexpr int kPromptGeneratorVersion = 4;

}  // namespace bench::workload
