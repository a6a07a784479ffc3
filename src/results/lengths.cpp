#include "bench/results/lengths.hpp"

#include <cmath>

#include <fmt/format.h>

namespace bench::results {

namespace {

using nlohmann::json;

bool beyond_tolerance(double measured, double expected) {
  return std::abs(measured - expected) > kLengthTolerance * expected;
}

}  // namespace

LengthCheck check_lengths(const LengthFigures& figures) {
  LengthCheck check;
  const std::string unit = figures.tokens ? "tokens" : "words";
  check.keys[std::string(key::input_len_unit)] = unit;
  check.keys[std::string(key::length_tokenizer)] =
      figures.tokens && !figures.tokenizer.empty() ? json(figures.tokenizer) : json(nullptr);
  check.keys[std::string(key::words_reason)] =
      !figures.tokens && !figures.words_reason.empty() ? json(figures.words_reason) : json(nullptr);
  check.keys[std::string(key::chat_template_tokens)] =
      figures.template_tokens ? json(*figures.template_tokens) : json(nullptr);
  check.keys[std::string(key::prompt_special_tokens)] =
      figures.special_tokens ? json(*figures.special_tokens) : json(nullptr);
  // Nothing sent: nothing was expected either (null, never 0).
  std::optional<double> expected = figures.requested_input;
  if (expected && figures.template_tokens && !figures.template_included) {
    *expected += *figures.template_tokens;
  }
  if (expected && figures.special_tokens) *expected += *figures.special_tokens;
  check.keys[std::string(key::expected_prompt_tokens)] = expected ? json(*expected) : json();

  json input = nullptr;
  if (figures.server_prompt_tokens && expected && *expected > 0) {
    input = beyond_tolerance(*figures.server_prompt_tokens, *expected);
    if (input.get<bool>()) {
      check.warnings.push_back(fmt::format(
          "input_len_mismatch: the server counted {:.1f} prompt tokens a request, {:.1f} "
          "expected ({:.1f} {} requested{}{}){}",
          *figures.server_prompt_tokens, *expected, *figures.requested_input, unit,
          figures.template_tokens && !figures.template_included
              ? fmt::format(" + {:g} of chat template", *figures.template_tokens)
              : "",
          figures.special_tokens && *figures.special_tokens > 0
              ? fmt::format(" + {:g} special (BOS) the tokenizer adds", *figures.special_tokens)
              : "",
          figures.tokens ? "" : "; lengths are words: --tokenizer makes them tokens"));
    }
  }
  check.keys[std::string(key::input_len_mismatch)] = input;

  json output = nullptr;
  const std::optional<double> counted = figures.server_completion_tokens
                                            ? figures.server_completion_tokens
                                            : figures.tokenizer_completion_tokens;
  const double requested_output = figures.requested_output.value_or(0);
  if (counted && requested_output > 0) {
    const double served = *counted;
    const bool over = served > requested_output * (1 + kLengthTolerance);
    const bool short_of = figures.ignore_eos && served < requested_output * (1 - kLengthTolerance);
    output = over || short_of;
    if (over || short_of) {
      check.warnings.push_back(fmt::format(
          "output_len_mismatch: {} {:.1f} tokens a request, {:.1f} requested{}",
          figures.server_completion_tokens ? "the server generated" : "the tokenizer counted",
          served, requested_output,
          short_of ? " with --ignore-eos (the server may not honour ignore_eos)" : ""));
    }
  }
  check.keys[std::string(key::output_len_mismatch)] = output;
  return check;
}

}  // namespace bench::results
