#pragma once
// The answer check (on unless --no-answer-check): before any warm-up or measured request, each
// server gets the known-answer prompts of the run's endpoint (answer_check/known_answers.hpp),
// one at a time, streamed at temperature 0 through the run's own path (engine::fetch into
// protocol::StreamReader), and each answer is judged (answer_check/judge.hpp). A server that
// answers fast with garbage passes every latency gate; this says so. Its requests are in no
// figure, and it never fails the run: a refusal (4xx) or a failure is said, and the run goes on.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/engine/engine.hpp"
#include "bench/protocol/openai.hpp"
#include "bench/protocol/stream_reader.hpp"
#include "bench/results/answer_check.hpp"
#include "bench/util/redact.hpp"

namespace bench::app {

/// Where and how the check asks: every server's endpoint URL, and the run's request shape,
/// headers (the API key's included), engine limits and stream limits.
struct AnswerProbeTarget {
  std::vector<std::string> urls;  // the endpoint's full URL on each server, in --base-url order
  const std::vector<std::string>* headers = nullptr;
  protocol::RequestOptions request;
  engine::EngineOptions engine;
  protocol::StreamLimits limits;
  const util::Redactor* redactor = nullptr;
};

/// The request the check sends: the run's (endpoint, model, extra body) at temperature 0, with
/// `max_tokens` (also as an extra body's max_tokens or max_completion_tokens), and without what
/// would run past the answer's end or change it: ignore_eos, min_tokens, per-chunk usage.
protocol::RequestOptions answer_probe_request(protocol::RequestOptions run,
                                              std::int64_t max_tokens);

/// Asks every server every prompt and judges the answers; a server all of whose answers failed
/// in transport or with a 5xx is asked them once more (its second round kept).
results::AnswerCheck probe_answers(const AnswerProbeTarget& target);

/// probe_answers, said on `err`: the summary as a note (not with `quiet`), or as a warning when
/// the answers look implausible (always): implausible text never stops a run (performance CI
/// serves dummy weights). Returns the results' block. Throws RunError when a server answered none
/// of the prompts (every one failed in transport or with a 5xx): its run would fail alike.
nlohmann::json run_answer_check(const AnswerProbeTarget& target, bool quiet, std::ostream& err);

}  // namespace bench::app
