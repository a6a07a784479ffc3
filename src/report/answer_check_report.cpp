#include "bench/report/answer_check.hpp"

#include <fmt/format.h>

#include "bench/results/answer_check.hpp"

namespace bench::report {

namespace {

using nlohmann::json;
namespace key = results::key;

std::string string_at(const json& object, std::string_view name) {
  const auto found = object.find(name);
  return found != object.end() && found->is_string() ? found->get<std::string>() : "";
}

std::size_t count_at(const json& object, std::string_view name) {
  const auto found = object.find(name);
  return found != object.end() && found->is_number_unsigned() ? found->get<std::size_t>() : 0;
}

// "  count_to_10: expected ...: \"the model token\"", with the server when there are several.
std::string answer_line(const json& answer, bool several_servers) {
  const std::string where =
      several_servers ? fmt::format(" (server {})", count_at(answer, key::answer_server)) : "";
  const std::string id = string_at(answer, key::answer_id);
  if (string_at(answer, key::answer_verdict) ==
      results::answer_verdict_name(results::AnswerVerdict::not_judged)) {
    return fmt::format("  {}{}: not judged: {}", id, where, string_at(answer, key::answer_error));
  }
  std::vector<std::string> problems;
  const auto listed = answer.find(key::answer_problems);
  if (listed != answer.end() && listed->is_array()) {
    for (const json& problem : *listed) {
      if (problem.is_string()) problems.push_back(problem.get<std::string>());
    }
  }
  return fmt::format("  {}{}: {}: \"{}\"", id, where, fmt::join(problems, "; "),
                     string_at(answer, key::answer_excerpt));
}

}  // namespace

std::vector<std::string> answer_check_lines(const json& block) {
  if (!block.is_object()) return {};
  const std::string verdict = string_at(block, key::answer_verdict);
  const std::size_t prompts = count_at(block, key::answer_prompts);
  const std::size_t plausible =
      count_at(block, results::answer_verdict_name(results::AnswerVerdict::plausible));
  const std::size_t not_judged =
      count_at(block, results::answer_verdict_name(results::AnswerVerdict::not_judged));
  const auto seconds = block.find(key::answer_seconds);
  const std::string cost =
      fmt::format("{:.2f} s before the run, in no figure",
                  seconds != block.end() && seconds->is_number() ? seconds->get<double>() : 0.0);
  std::vector<std::string> lines;
  if (verdict == results::answer_verdict_name(results::AnswerVerdict::not_judged)) {
    lines.push_back(fmt::format("not judged: none of {} known-answer prompts was answered ({})",
                                prompts, cost));
  } else {
    lines.push_back(fmt::format(
        "{} of {} known-answer prompts answered plausibly{}{} ({})", plausible, prompts,
        not_judged > 0 ? fmt::format(", {} not judged", not_judged) : "",
        results::answer_check_implausible(block) ? ": the answers do not look like a model's work"
                                                 : "",
        cost));
  }
  const auto answers = block.find(key::answers);
  if (answers == block.end() || !answers->is_array()) return lines;
  bool several_servers = false;
  for (const json& answer : *answers) several_servers |= count_at(answer, key::answer_server) > 0;
  for (const json& answer : *answers) {
    if (string_at(answer, key::answer_verdict) !=
        results::answer_verdict_name(results::AnswerVerdict::plausible)) {
      lines.push_back(answer_line(answer, several_servers));
    }
  }
  return lines;
}

std::string render_answer_check(const json& block) {
  const std::vector<std::string> lines = answer_check_lines(block);
  if (lines.empty()) return "";
  std::string text =
      fmt::format("Answer check: {}{}\n",
                  results::answer_check_implausible(block) ? "WARNING: " : "", lines.front());
  for (std::size_t i = 1; i < lines.size(); ++i) text += lines[i] + "\n";
  return text;
}

}  // namespace bench::report
