#pragma once
// One request's worth of input, whatever dataset it came from, and how it maps onto the two
// OpenAI endpoints. Lengths are words unless a tokenizer is given (--tokenizer, then random
// prompts are tokens: token_prompts.hpp): whitespace-separated words are bench's documented
// proxy for tokens (the embedded server counts prompt tokens the same way, and the report puts
// the server's own prompt_tokens beside the length asked for).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench::workload {

struct Prompt {
  // The user's text: the whole prompt of a random, ShareGPT or jsonl "prompt" request; the
  // question of a shared-prefix request (its system text is apart); for a jsonl "messages"
  // request, the text of every message joined by blank lines (used only by /v1/completions).
  std::string text;
  std::int64_t input_len = 0;   // words of everything sent: system_text + text, or messages
  std::int64_t output_len = 0;  // max_tokens to request (>= 1)

  // A system prompt sent before `text`: the shared prefix of a shared-prefix group. Empty
  // when there is none.
  std::string system_text;
  std::int64_t system_len = 0;  // words (tokens) of system_text, counted in input_len too
  // The complete chat of a jsonl "messages" request, sent as is to /v1/chat/completions.
  // Null when the request is plain text.
  nlohmann::json messages;
  // The max_tokens the dataset itself gave for this request (a jsonl line's "max_tokens");
  // output_len already holds it. nullopt when the value came from a flag or a reply's length.
  std::optional<std::int64_t> dataset_max_tokens;
  // A jsonl row's "images": the image files sent after the user's text (image_url parts), each
  // as the row named it, resolved against the dataset file's directory. Read when the request's
  // body is built (images/image_file.hpp), never kept here. Empty for other rows and datasets.
  std::vector<std::string> image_files;
  // Which shared-prefix group the request belongs to (0-based); -1 for other datasets.
  std::int64_t prefix_group = -1;
  // random-ids: the prompt as token ids, sent as "prompt": [ids] to /v1/completions (text is
  // then empty). Empty for every other dataset.
  std::vector<std::int32_t> prompt_ids;
  // The prompt's content tokens as the run's tokenizer counted what is sent (random with
  // --tokenizer, random-ids); -1 when no tokenizer counted it (input_len is then words).
  std::int64_t client_tokens = -1;
  // sharegpt with --multi-turn: the conversation's later human turns, in order, each with the
  // length of the turn answering it as its output target (the first turn's when none answers).
  // Empty otherwise.
  struct FollowUp {
    std::string text;
    std::int64_t input_len = 0;   // words (tokens with a tokenizer)
    std::int64_t output_len = 0;  // max_tokens to ask
  };
  std::vector<FollowUp> follow_ups;
  // The request's own "stream" choice, where its dataset gives one (a trace that mixes streamed
  // and non-streamed requests); nullopt: the run's (--no-stream). app::sent_streamed reads it.
  std::optional<bool> stream;
};

/// What /v1/completions gets as "prompt": system_text, a blank line, then text (SGLang's
/// generated-shared-prefix joins them as f"{system_prompt}\n\n{question}"), or text alone.
std::string completion_prompt(const Prompt& prompt);

/// What /v1/chat/completions gets as "messages": `messages` when the dataset gave them;
/// otherwise [{"role":"system","content":system_text}] when there is one, then
/// {"role":"user","content":text}. No chat template is applied client-side.
nlohmann::json chat_messages(const Prompt& prompt);

/// Words in a chat message's content: a string, or an array of parts whose "text" strings
/// count (OpenAI content parts); null counts 0. nullopt for any other shape.
std::optional<std::int64_t> content_words(const nlohmann::json& content);

}  // namespace bench::workload
