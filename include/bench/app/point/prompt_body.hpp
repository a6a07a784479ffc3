#pragma once
// A prompt on the wire: the one place that decides how a workload::Prompt becomes a request
// body, so every request of a point and --prefix-share's priming request
// (app/run/prime_prefix.hpp) send their shared system prompt as the same bytes (a prefix cache
// matches what it was sent, not what was meant).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/protocol/openai.hpp"
#include "bench/workload/prompt.hpp"

namespace bench::app {

/// Token ids as /v1/completions' prompt (random-ids); a completions prompt (system text, a blank
/// line, the text); or chat's messages (the dataset's, or a system and a user message), with the
/// data URLs `image_urls` gives after the user's text. `image_urls` is called for a chat body
/// only (reading and encoding images is the costly part); it may be empty, and so may its answer.
/// `request.max_tokens` is sent as given.
std::string prompt_body(const protocol::RequestOptions& request, const workload::Prompt& prompt,
                        const std::function<std::vector<std::string>()>& image_urls = {});

/// Whether a request is sent streamed: its prompt's own choice (workload::Prompt::stream) where
/// it has one, else the run's (`run_stream`, RequestOptions::stream: --no-stream). The body's
/// "stream" and the reading of its answer both follow it.
inline bool sent_streamed(const std::optional<bool>& prompt_stream, bool run_stream) {
  return prompt_stream.value_or(run_stream);
}

}  // namespace bench::app
