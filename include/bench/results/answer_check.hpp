#pragma once
// The results' "answer_check" block: what the known-answer prompts sent before the run
// (app/answer_probe.hpp) were answered, judged by answer_check/judge.hpp. null when the check
// was not made (--no-answer-check). docs/results-format.md describes it:
//   "answer_check": {
//     "verdict": "plausible" | "implausible" | "not_judged",
//     "prompts": 3, "plausible": 3, "implausible": 0, "not_judged": 0,
//     "seconds": 0.21,          // the check's wall time, before the run (in no figure)
//     "answers": [{"server": 0, "id": "count_to_10", "prompt": "Count from 1 to 10.",
//                  "verdict": "plausible", "problems": [], "excerpt": "1, 2, 3, ...",
//                  "http_status": 200, "finish_reason": "stop", "error": null}, ...]}
// The verdict is implausible when any answer is, plausible when every judged one is (and one
// was), not_judged when the server answered none (refused, failed).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench::results {

namespace key {
inline constexpr std::string_view answer_check = "answer_check";
inline constexpr std::string_view answer_verdict = "verdict";
inline constexpr std::string_view answer_prompts = "prompts";
inline constexpr std::string_view answer_seconds = "seconds";
inline constexpr std::string_view answers = "answers";
inline constexpr std::string_view answer_server = "server";
inline constexpr std::string_view answer_id = "id";
inline constexpr std::string_view answer_prompt = "prompt";
inline constexpr std::string_view answer_problems = "problems";
inline constexpr std::string_view answer_excerpt = "excerpt";
inline constexpr std::string_view answer_http_status = "http_status";
inline constexpr std::string_view answer_finish_reason = "finish_reason";
inline constexpr std::string_view answer_error = "error";
}  // namespace key

/// An answer's verdict, and the block's: "plausible", "implausible", "not_judged".
enum class AnswerVerdict { plausible, implausible, not_judged };
std::string_view answer_verdict_name(AnswerVerdict verdict);

/// One server's answer to one known-answer prompt.
struct KnownAnswerResult {
  std::size_t server = 0;  // which --base-url (0-based, in the flags' order, as in per_server)
  std::string id;          // the prompt's id (answer_check/known_answers.hpp)
  std::string prompt;
  AnswerVerdict verdict = AnswerVerdict::not_judged;
  std::vector<std::string> problems;  // implausible: why
  std::string excerpt;   // the start of what it said (reasoning, then answer), one line
  long http_status = 0;  // 0: no response
  std::string finish_reason;
  std::string error;  // not_judged: the server's refusal or the transport's failure
};

struct AnswerCheck {
  std::vector<KnownAnswerResult> answers;
  double seconds = 0;  // wall time of the whole check
};

/// The block's verdict (see above).
AnswerVerdict answer_check_verdict(const AnswerCheck& check);

nlohmann::json answer_check_to_json(const AnswerCheck& check);

/// The block's verdict is "implausible": the answers do not look like a model's work.
bool answer_check_implausible(const nlohmann::json& block);

}  // namespace bench::results
