#pragma once
// The answer check's prompts: a few short questions whose answers any working model gives at
// temperature 0, and what such an answer holds. A server that answers fast with garbage (random
// weights, a wrong checkpoint, a broken tokenizer) passes every latency gate; its answers to
// these do not look like a model's work. One table for both ends: bench sends the prompts
// (app/answer_probe.cpp) and the embedded simulator knows their answers (--sim-answers canned).
//
// Chat prompts are instructions; completions prompts are text a base model continues, since a
// base model (no chat template) does not follow an instruction.
#include <cstdint>
#include <span>
#include <string_view>

namespace bench::answer_check {

struct KnownAnswerPrompt {
  std::string_view id;      // "count_to_10": stable, for scripts reading the results
  std::string_view prompt;  // sent as it is: the user message (chat) or the prompt (completions)
  // What a plausible answer holds, in this order (not necessarily adjacent): each entry is one
  // word and its accepted spellings, '|'-separated, matched case-insensitively ("1|one").
  std::span<const std::string_view> expected;
  std::string_view expected_label;  // the same, said to people: "the numbers 1 to 10 in order"
  // Words that show an answer is about the question, for a reasoning model cut off at
  // max_tokens while still thinking: its text need only mention one of them.
  std::span<const std::string_view> topic;
  std::int64_t max_tokens = 0;     // room for the answer (and some reasoning), not more
  std::string_view canned_answer;  // what the simulator answers (--sim-answers canned)
};

/// The prompts for /v1/chat/completions (chat = true) or /v1/completions.
std::span<const KnownAnswerPrompt> known_answer_prompts(bool chat);

/// The prompt whose text is exactly `prompt` on that endpoint; null when none is.
const KnownAnswerPrompt* find_known_answer_prompt(std::string_view prompt, bool chat);

}  // namespace bench::answer_check
