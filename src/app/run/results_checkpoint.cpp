#include "bench/app/run/results_checkpoint.hpp"

#include <variant>

#include "bench/app/run/run_stages.hpp"
#include "bench/util/atomic_file.hpp"
#include "bench/util/output_target.hpp"

namespace bench::app {

using nlohmann::json;

bool ResultsCheckpoint::wanted(const RunPlan& plan) {
  // SGLang's --output-file is a JSONL file appended to: no checkpoint may replace it.
  if (plan.output.output_file.empty() || plan.output.peer_results.sglang_output_file) return false;
  const auto target = resolve_output(plan.output.output_file);
  const auto* resolved = std::get_if<OutputTarget>(&target);
  return resolved != nullptr && resolved->kind == OutputTarget::Kind::replaced_file;
}

void ResultsCheckpoint::point_done(const json& point) {
  const std::lock_guard lock(mutex_);
  done_.push_back(point);
}

void ResultsCheckpoint::write(json point) noexcept {
  try {
    point["partial"] = true;
    point["interrupted"] = true;
    json results = std::move(point);
    if (plan_.sweep_variable != SweepVariable::none) {
      std::vector<json> objects;
      {
        const std::lock_guard lock(mutex_);
        objects = done_;
      }
      objects.push_back(std::move(results));
      results = sweep_results(plan_, objects);
      results["partial"] = true;
      results["interrupted"] = true;
    }
    write_file_atomically(plan_.output.output_file,
                          results_for_scripts(plan_.output, results).dump(2) + "\n");
  } catch (const std::exception&) {
    // The run's own write, at its end, says what is wrong with the path.
  }
}

}  // namespace bench::app
