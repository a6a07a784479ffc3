// The run's longest request against the server's max_model_len: what the plan and the prepared
// prompts say of it (server_identity.hpp judges it).
#include <optional>
#include <string>

#include <fmt/format.h>

#include "bench/app/run/run_stages.hpp"
#include "bench/workload/random_prompts.hpp"

namespace bench::app {

namespace {

// What makes a dataset's too long requests fit, said with the refusal.
std::string context_remedy(workload::DatasetKind kind, std::int64_t max_model_len) {
  switch (kind) {
    case workload::DatasetKind::sharegpt:
      return fmt::format("--sharegpt-context-len {} drops such conversations (SGLang's filter)",
                         max_model_len);
    case workload::DatasetKind::jsonl:
      return "shorten those lines' prompts or max_tokens (--output-len for lines without one)";
    case workload::DatasetKind::trace: return "the trace's rows ask for more than this model holds";
    default: return "lower the dataset's lengths";
  }
}

// A dataset's longest request, as its prompt source read it, with the chat template's tokens
// on top (its prompts count their content only); unchanged when the source does not know it.
ContextFit dataset_fit(ContextFit fit, workload::DatasetKind kind, const RunPlan& plan,
                       const PreparedRun& prepared) {
  const std::optional<workload::LongestRequest> longest =
      prepared.prompts ? prepared.prompts->longest_request() : std::nullopt;
  if (!longest) return fit;
  fit.dataset = workload::dataset_kind_name(kind);
  fit.remedy = context_remedy(kind, fit.max_model_len.value_or(0));
  fit.in_tokens = longest->in_tokens;
  fit.longest_prompt = longest->prompt_len;
  fit.longest_output = longest->output_len;
  if (plan.output_len_from_extra_body) {  // one max_tokens for every request
    fit.longest_prompt = longest->longest_prompt;
    fit.longest_output = plan.output_len;
  }
  if (fit.in_tokens && prepared.template_overhead) {
    fit.longest_prompt += prepared.template_overhead->tokens;
  }
  return fit;
}

}  // namespace

ContextFit context_fit_of(const RunPlan& plan, const PreparedRun& prepared) {
  ContextFit fit;
  fit.max_model_len = prepared.server.max_model_len;
  fit.in_tokens = lengths_in_tokens(plan, prepared);
  const workload::DatasetKind kind = plan.dataset.kind;
  if (kind != workload::DatasetKind::random && kind != workload::DatasetKind::random_ids) {
    return dataset_fit(fit, kind, plan, prepared);
  }
  fit.longest_prompt = workload::input_length_range(plan.dataset).high;
  if (prepared.template_overhead && !plan.tokenizer.input_len_includes_template) {
    fit.longest_prompt += prepared.template_overhead->tokens;
  }
  fit.longest_output = plan.output_len_from_extra_body
                           ? plan.output_len
                           : workload::output_length_range(plan.dataset).high;
  // An agent session's later turns are as long as the model's calls make them: only its task
  // is known (a turn that does not fit fails and is classified).
  if (plan.multi_turn.enabled && plan.multi_turn.turns && !plan.multi_turn.agent()) {
    fit.turns = *plan.multi_turn.turns;
  }
  return fit;
}

}  // namespace bench::app
