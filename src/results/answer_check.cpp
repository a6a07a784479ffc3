#include "bench/results/answer_check.hpp"

#include <algorithm>

namespace bench::results {

std::string_view answer_verdict_name(AnswerVerdict verdict) {
  switch (verdict) {
    case AnswerVerdict::plausible: return "plausible";
    case AnswerVerdict::implausible: return "implausible";
    case AnswerVerdict::not_judged: return "not_judged";
  }
  return "not_judged";
}

AnswerVerdict answer_check_verdict(const AnswerCheck& check) {
  const auto has = [&](AnswerVerdict verdict) {
    return std::any_of(check.answers.begin(), check.answers.end(),
                       [&](const KnownAnswerResult& answer) { return answer.verdict == verdict; });
  };
  if (has(AnswerVerdict::implausible)) return AnswerVerdict::implausible;
  if (has(AnswerVerdict::plausible)) return AnswerVerdict::plausible;
  return AnswerVerdict::not_judged;
}

nlohmann::json answer_check_to_json(const AnswerCheck& check) {
  nlohmann::json answers = nlohmann::json::array();
  std::size_t counts[3] = {0, 0, 0};
  for (const KnownAnswerResult& answer : check.answers) {
    ++counts[static_cast<std::size_t>(answer.verdict)];
    answers.push_back(
        {{key::answer_server, answer.server},
         {key::answer_id, answer.id},
         {key::answer_prompt, answer.prompt},
         {key::answer_verdict, answer_verdict_name(answer.verdict)},
         {key::answer_problems, answer.problems},
         {key::answer_excerpt, answer.excerpt},
         {key::answer_http_status,
          answer.http_status != 0 ? nlohmann::json(answer.http_status) : nlohmann::json(nullptr)},
         {key::answer_finish_reason, answer.finish_reason.empty()
                                         ? nlohmann::json(nullptr)
                                         : nlohmann::json(answer.finish_reason)},
         {key::answer_error,
          answer.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(answer.error)}});
  }
  nlohmann::json block = {{key::answer_verdict, answer_verdict_name(answer_check_verdict(check))},
                          {key::answer_prompts, check.answers.size()}};
  for (const AnswerVerdict verdict :
       {AnswerVerdict::plausible, AnswerVerdict::implausible, AnswerVerdict::not_judged}) {
    block[std::string(answer_verdict_name(verdict))] = counts[static_cast<std::size_t>(verdict)];
  }
  block[key::answer_seconds] = check.seconds;
  block[key::answers] = std::move(answers);
  return block;
}

bool answer_check_implausible(const nlohmann::json& block) {
  if (!block.is_object()) return false;
  const auto verdict = block.find(key::answer_verdict);
  return verdict != block.end() && verdict->is_string() &&
         verdict->get<std::string>() == answer_verdict_name(AnswerVerdict::implausible);
}

}  // namespace bench::results
