#pragma once
// The JSON Schema (draft 7) of a results file, generated from the writer's own tables: the run
// figures (run_metric_names()) and the latency catalogue (latency_figures.hpp), each described by
// its definition. docs/results.schema.json is this schema as shipped; a test keeps the two equal
// and validates every results fixture and a fresh run's file against it.
#include <nlohmann/json.hpp>

namespace bench::results {

/// The schema of the results files of schema_version kSchemaVersion: a run object, or a sweep or
/// search whose points (and each point's repeat_runs) are run objects. Every figure is typed (a
/// number, or null when unknown; request_rate also "inf"); keys it does not list are allowed, as
/// readers ignore them.
nlohmann::json results_schema();

}  // namespace bench::results
