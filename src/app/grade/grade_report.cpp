#include "grade_report.hpp"

#include <fmt/format.h>

namespace bench::app {

namespace {

using nlohmann::json;

std::optional<double> error_of(const Graded& graded, const std::string& key) {
  const auto value = graded.figures.at(key);
  const auto truth = graded.truth.figures.at(key);
  if (!value || !truth) return std::nullopt;
  return *value - *truth;
}

std::string cell(std::optional<double> value, bool with_sign = false) {
  if (!value) return "n/a";
  return with_sign ? fmt::format("{:+.2f}", *value) : fmt::format("{:.2f}", *value);
}

std::string source_line(const Graded& graded) {
  return fmt::format(
      "{}: {} results ({}), {} requests completed{}; truth: the last {} of the {} "
      "complete answers its server sent\n",
      graded.label, graded.tool, graded.results_path, graded.completed,
      graded.exit_code == 0 ? "" : fmt::format(", exit {}", graded.exit_code),
      graded.truth.compared, graded.truth.served);
}

json side_json(const Graded& graded) {
  json figures = json::object();
  for (const std::string& key : graded_keys()) {
    const auto value = graded.figures.at(key);
    const auto truth = graded.truth.figures.at(key);
    const auto error = error_of(graded, key);
    figures[key] = {{"value", value ? json(*value) : json(nullptr)},
                    {"truth", truth ? json(*truth) : json(nullptr)},
                    {"error", error ? json(*error) : json(nullptr)}};
  }
  return {{"tool", graded.tool},
          {"results", graded.results_path},
          {"completed", graded.completed},
          {"exit_code", graded.exit_code},
          {"truth_served", graded.truth.served},
          {"truth_compared", graded.truth.compared},
          {"figures", figures}};
}

}  // namespace

std::string grade_text(const Graded& client, const std::optional<Graded>& bench) {
  std::string out =
      "bench grade: each figure against the server's truth log (when it handed each byte to the "
      "socket); error = the client's figure - the same figure over what the server sent, in ms "
      "(vLLM's and SGLang's \"ITL\" is ICL here)\n";
  out += source_line(client);
  if (bench) out += source_line(*bench);
  out += fmt::format("{:<20} {:>9} {:>9} {:>9}", "figure (ms)", "client", "truth", "error");
  if (bench) out += fmt::format("   {:>9} {:>9} {:>9}", "bench", "truth", "error");
  out += "\n";
  for (const std::string& key : graded_keys()) {
    out += fmt::format("{:<20} {:>9} {:>9} {:>9}", key, cell(client.figures.at(key)),
                       cell(client.truth.figures.at(key)), cell(error_of(client, key), true));
    if (bench) {
      out += fmt::format("   {:>9} {:>9} {:>9}", cell(bench->figures.at(key)),
                         cell(bench->truth.figures.at(key)), cell(error_of(*bench, key), true));
    }
    out += "\n";
  }
  out +=
      "The error holds the client's own lag (reading, parsing, its event loop) and any rule "
      "of its that differs from bench's (bench report --as lists them); the server is on this "
      "host, so no network is in it.\n";
  return out;
}

json grade_json(const Graded& client, const std::optional<Graded>& bench) {
  json out = {{"client", side_json(client)}};
  out["bench"] = bench ? side_json(*bench) : json(nullptr);
  return out;
}

}  // namespace bench::app
