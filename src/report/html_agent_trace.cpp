// The HTML report's section of a replayed agent trace, from the run object's "agent_trace"
// (results/agent_trace_section.hpp): AgentX's validity, the prefix-cache ceiling beside what the
// server served, the trees, subagents and requests by agent, and InferenceX's point, as the
// text report words them.
#include <string>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "bench/results/run_metrics.hpp"

#include "html_parts.hpp"
#include "results_view.hpp"

namespace bench::report::html {
namespace {

namespace key = results::key;

std::string ceiling_share_text(const json& object, std::string_view name) {
  const std::optional<double> share = view::number(object, name);
  return share ? fmt::format("{:.1f}%", *share * 100) : std::string("n/a");
}

// A share (0..1) in percentage points, one decimal.
std::string share_points(std::optional<double> share) {
  return view::fixed(share ? std::optional<double>(*share * 100) : std::nullopt, 1);
}

std::string agent_entry(std::string_view label, const std::string& value) {
  return fmt::format("<div><dt>{}</dt><dd>{}</dd></div>", label, value);
}

std::string cache_ceiling_entries(const json& agent) {
  const json* ceiling = view::object_at(agent, key::cache_ceiling);
  if (ceiling == nullptr) return "";
  std::string served = "n/a (the server did not disclose cached tokens)";
  if (view::count(*ceiling, key::disclosing_requests) > 0) {
    served = fmt::format("{} ({} tokens, usage of {} of {} requests); gap {} points, {} tokens",
                         ceiling_share_text(*ceiling, key::cached_share),
                         view::grouped(view::count(*ceiling, key::cached_tokens)),
                         view::grouped(view::count(*ceiling, key::disclosing_requests)),
                         view::grouped(view::count(*ceiling, key::ceiling_requests)),
                         share_points(view::number(*ceiling, key::gap_share)),
                         view::grouped(view::count(*ceiling, key::gap_tokens)));
  }
  return agent_entry(
             "Prompt cache ceiling",
             fmt::format("{} ({} of {} prompt tokens in blocks sent before: the trace's most)",
                         ceiling_share_text(*ceiling, key::ceiling_share),
                         view::grouped(view::count(*ceiling, key::ceiling_tokens)),
                         view::grouped(view::count(*ceiling, key::ceiling_prompt_tokens)))) +
         agent_entry("Served by the server", esc(served));
}

// "mean 12.00, min 3.00, p50 11.00, p99 20.00" of `{stat}_{name}` in `object`.
std::string stats_text(const json& object, std::string_view name) {
  const auto value = [&](std::string_view stat) {
    return view::fixed(view::number(object, fmt::format("{}_{}", stat, name)), 2);
  };
  return fmt::format("mean {}, min {}, p50 {}, p99 {}", value("mean"), value("min"),
                     value("median"), value("p99"));
}

std::string tree_entries(const json& agent) {
  const json* trees = view::object_at(agent, key::trees);
  const json* subagents = view::object_at(agent, key::subagents);
  if (trees == nullptr || subagents == nullptr) return "";
  return agent_entry("Trees completed", view::grouped(view::count(*trees, key::agent_count))) +
         agent_entry("Requests per tree", stats_text(*trees, key::agent_turns)) +
         agent_entry("Output per tree", stats_text(*trees, key::output_throughput) +
                                            " tok/s (output) over its duration") +
         agent_entry("Input per tree", stats_text(*trees, key::input_throughput) +
                                           " tok/s (input) over its duration") +
         agent_entry("Subagents (of completed trees)",
                     view::grouped(view::count(*subagents, key::agent_count))) +
         agent_entry("Subagent duration (ms)", stats_text(*subagents, key::agent_duration_ms)) +
         agent_entry("Requests per subagent", stats_text(*subagents, key::agent_turns)) +
         agent_entry("Output per subagent",
                     stats_text(*subagents, key::output_throughput) + " tok/s (output)");
}

std::string role_entry(const json& agent, std::string_view role_key, std::string_view label) {
  const json* role = view::object_at(agent, role_key);
  if (role == nullptr) return "";
  return agent_entry(
      label, fmt::format("{} sent, {} completed, {} output tokens; TTFT p50 {} ms, p99 {} ms",
                         view::grouped(view::count(*role, key::role_requests)),
                         view::grouped(view::count(*role, key::role_completed)),
                         view::grouped(view::count(*role, key::role_output_tokens)),
                         view::fixed(view::number(*role, "median_ttft_ms"), 2),
                         view::fixed(view::number(*role, "p99_ttft_ms"), 2)));
}

std::string inferencex_entries(const json& run, const json& agent) {
  return agent_entry(
             "InferenceX point",
             fmt::format("{} tok/s (total = input + output) per GPU, cached input counted, at "
                         "p90 interactivity {} tok/s (output) per user (1 / p90 TPOT: per "
                         "token, AIPerf's ITL)",
                         view::fixed(view::number(run, key::total_throughput_per_gpu), 2),
                         view::fixed(view::number(agent, key::p90_interactivity), 2))) +
         agent_entry(
             "Beside it, per GPU",
             fmt::format(
                 "{} tok/s (output), {} tok/s (input, computed)",
                 view::fixed(view::number(run, key::output_throughput_per_gpu), 2),
                 view::fixed(view::number(agent, key::computed_input_throughput_per_gpu), 2)));
}

}  // namespace

std::string agent_trace_section(const json& run, std::string_view id_prefix) {
  const json* agent = view::object_at(run, key::agent_trace);
  if (agent == nullptr) return "";
  const bool valid = view::flag(*agent, key::agent_valid);
  return fmt::format(
      "<section class=\"card\" id=\"{}agent-trace\"><h2>Agent trace</h2>"
      "<p class=\"alert {}\">{}: {}</p><dl class=\"meta\">{}{}{}{}{}</dl>"
      "<p class=\"note\">Trees: the session trees whose every request ended well, each from its "
      "first send to its last end. The ceiling: the prompt tokens each request's blocks share "
      "with what was sent before, the most a server caching whole blocks could serve. Per GPU "
      "figures need --gpus.</p></section>",
      esc(id_prefix), valid ? "info" : "bad",
      valid ? "Valid by AgentX's rule" : "NOT valid by AgentX's rule",
      esc(view::text(*agent, key::agent_validity)), cache_ceiling_entries(*agent),
      tree_entries(*agent), role_entry(*agent, key::root_requests, "Requests of root agents"),
      role_entry(*agent, key::subagent_requests, "Requests of subagents"),
      inferencex_entries(run, *agent));
}

}  // namespace bench::report::html
