#pragma once
// A grade's words: each figure of the client and of bench beside the truth, and their errors.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "graded_figures.hpp"

namespace bench::app {

/// One client graded: its figures, the truth over the same requests, and where they came from.
struct Graded {
  std::string label;         // "the client", "bench"
  std::string results_path;  // its results file
  std::string tool;          // "vllm", "sglang", "bench"
  std::int64_t completed = 0;
  Figures figures;
  TruthFigures truth;
  int exit_code = 0;
};

std::string grade_text(const Graded& client, const std::optional<Graded>& bench);
nlohmann::json grade_json(const Graded& client, const std::optional<Graded>& bench);

}  // namespace bench::app
