#include "bench/app/run/answer_probe.hpp"

#include <algorithm>
#include <ostream>
#include <set>

#include <fmt/format.h>

#include "bench/answer_check/judge.hpp"
#include "bench/answer_check/known_answers.hpp"
#include "bench/app/server/startup_fetch.hpp"
#include "bench/engine/fetch.hpp"
#include "bench/metrics/request_record.hpp"
#include "bench/report/answer_check.hpp"
#include "bench/util/clock.hpp"
#include "bench/util/redact.hpp"

namespace bench::app {

namespace {

using results::AnswerVerdict;
using results::KnownAnswerResult;

constexpr std::size_t kExcerptChars = 80;

// Extra-body keys that would carry the answer past its end (vLLM's and SGLang's ignore_eos and
// min_tokens; vllm/sampling_params.py) or sample it (n, best_of): left out of the check's body.
constexpr const char* kDroppedExtraKeys[] = {
    "ignore_eos", "min_tokens", "n", "best_of", "tools", "tool_choice", "response_format"};

// Why an answer was not judged, one line: the refusal, the failure, or the broken stream.
std::string not_judged_reason(const engine::FetchResult& got, const metrics::RequestRecord& record,
                              const util::Redactor& redactor) {
  if (got.http_status == 0) return "no response: " + redactor.redact(got.end.message);
  if (got.http_status != 200) {
    return fmt::format(
        "HTTP {}: {}", got.http_status,
        answer_check::answer_excerpt(redactor.redact(protocol::error_message_from_body(got.body)),
                                     kExcerptChars));
  }
  return fmt::format(
      "the stream failed ({}): {}", metrics::error_class_name(record.error),
      answer_check::answer_excerpt(redactor.redact(record.error_message), kExcerptChars));
}

KnownAnswerResult ask(const AnswerProbeTarget& target, std::size_t server,
                      const answer_check::KnownAnswerPrompt& prompt) {
  const protocol::RequestOptions request = answer_probe_request(target.request, prompt.max_tokens);
  const std::string body =
      protocol::takes_messages(request.endpoint)
          ? protocol::build_chat_request_body(
                request, nlohmann::json::array(
                             {{{"role", "user"}, {"content", std::string(prompt.prompt)}}}))
          : protocol::build_request_body(request, prompt.prompt);
  const engine::FetchResult got = startup_fetch(target.urls[server], *target.headers, body,
                                                target.engine, target.limits.max_response_bytes);
  metrics::RequestRecord record;
  protocol::StreamReader reader(target.limits);
  reader.read_as(request.endpoint);
  reader.keep_answer_text(true);
  reader.keep_reasoning_text(true);
  reader.begin(&record,
               request.stream ? protocol::Delivery::stream : protocol::Delivery::whole_body);
  reader.on_headers(got.http_status, got.content_type);
  reader.on_body(got.body, 0);
  reader.finish(protocol::TransportEnd{got.end.error, got.end.message, 0});

  KnownAnswerResult result;
  result.server = server;
  result.id = prompt.id;
  result.prompt = prompt.prompt;
  result.http_status = got.http_status;
  result.finish_reason = record.finish_reason;
  const util::Redactor& redactor = *target.redactor;
  if (!record.ok()) {
    result.error = not_judged_reason(got, record, redactor);
    return result;
  }
  const std::string& content = reader.answer_text();
  const std::string& reasoning = reader.kept_reasoning_text();
  const answer_check::Verdict verdict =
      answer_check::judge_answer(prompt, {content, reasoning, record.finish_reason == "length"});
  result.verdict = verdict.plausible ? AnswerVerdict::plausible : AnswerVerdict::implausible;
  result.problems = verdict.problems;
  // What it answered; what it thought only when it answered nothing.
  const bool answered = content.find_first_not_of(" \t\r\n") != std::string::npos;
  result.excerpt = answer_check::answer_excerpt(
      redactor.redact(answered || reasoning.empty() ? content : "(reasoning) " + reasoning),
      kExcerptChars);
  return result;
}

// Whether an answer failed before any stream: in transport, or with a server error (5xx). A 4xx
// refuses that request (the check's max_tokens in a small context, say), not every request, and
// a refusal for good (a key, a model) ends the run at the usage probe already.
bool failed_before_answer(const KnownAnswerResult& answer) {
  return answer.http_status == 0 || answer.http_status >= 500;
}

// How many times the prompts are asked of a server all of whose answers failed before a stream:
// one that fails a share of its requests (a fault rate, a replica restarting) can fail three in a
// row by chance, and its run is worth measuring.
constexpr int kRoundsWhileEveryAnswerFails = 2;

// A server's answers to every prompt, from the last round asked.
std::vector<KnownAnswerResult> ask_server(const AnswerProbeTarget& target, std::size_t server) {
  const bool chat = protocol::takes_messages(target.request.endpoint);
  std::vector<KnownAnswerResult> answers;
  for (int round = 0; round < kRoundsWhileEveryAnswerFails; ++round) {
    answers.clear();
    for (const answer_check::KnownAnswerPrompt& prompt : answer_check::known_answer_prompts(chat)) {
      answers.push_back(ask(target, server, prompt));
    }
    if (!std::all_of(answers.begin(), answers.end(), failed_before_answer)) break;
  }
  return answers;
}

// The first answer of the first server none of whose answers got as far as a stream; nullptr
// when every server answered at least one. Such a server would fail every request of the run
// the same way.
const KnownAnswerResult* server_answering_none(const results::AnswerCheck& check) {
  std::set<std::size_t> answering;
  for (const KnownAnswerResult& answer : check.answers) {
    if (!failed_before_answer(answer)) answering.insert(answer.server);
  }
  for (const KnownAnswerResult& answer : check.answers) {
    if (!answering.contains(answer.server)) return &answer;
  }
  return nullptr;
}

}  // namespace

protocol::RequestOptions answer_probe_request(protocol::RequestOptions run,
                                              std::int64_t max_tokens) {
  run.max_tokens = max_tokens;
  run.temperature = 0.0;
  run.ignore_eos = false;
  run.continuous_usage_stats = false;
  // The check judges text answers: no tools to call, no schema bending the answer's words.
  run.tools = nullptr;
  run.tool_choice = nullptr;
  run.response_format = nullptr;
  if (run.extra_body.is_object()) {
    for (const char* key : kDroppedExtraKeys) run.extra_body.erase(key);
    // An extra body that sets the length sends it in the key the server wants: keep the key.
    for (const char* key : {"max_tokens", "max_completion_tokens"}) {
      if (run.extra_body.contains(key)) run.extra_body[key] = max_tokens;
    }
    if (run.extra_body.contains("temperature")) run.extra_body["temperature"] = 0.0;
  }
  return run;
}

results::AnswerCheck probe_answers(const AnswerProbeTarget& target) {
  const std::int64_t start_ns = now_ns();
  results::AnswerCheck check;
  for (std::size_t server = 0; server < target.urls.size(); ++server) {
    std::vector<KnownAnswerResult> answers = ask_server(target, server);
    check.answers.insert(check.answers.end(), answers.begin(), answers.end());
  }
  check.seconds = ns_to_s(now_ns() - start_ns);
  return check;
}

nlohmann::json run_answer_check(const AnswerProbeTarget& target, bool quiet, std::ostream& err) {
  const results::AnswerCheck check = probe_answers(target);
  if (const KnownAnswerResult* failed = server_answering_none(check)) {
    throw RunError(fmt::format(
        "every answer-check request to {} failed before any answer ({}, e.g. \"{}\"): the "
        "run's requests would fail alike; --no-answer-check sends them anyway",
        util::url_with_secrets_hidden(target.urls[failed->server]), failed->error, failed->prompt));
  }
  nlohmann::json block = results::answer_check_to_json(check);
  const std::vector<std::string> lines = report::answer_check_lines(block);
  const bool implausible = results::answer_check_implausible(block);
  if (implausible || !quiet) {
    err << (implausible ? "bench: warning: answer check: " : "bench: answer check: ")
        << lines.front() << "\n";
    for (std::size_t i = 1; i < lines.size(); ++i) err << "bench: " << lines[i] << "\n";
  }
  return block;
}

}  // namespace bench::app
