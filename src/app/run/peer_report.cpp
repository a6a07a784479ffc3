// `bench report RESULTS --as TOOLS --requests LOG`: what each tool would have printed for the
// run, its rules (peer_view/tool_rules.hpp) applied to the run's request log, beside bench's own
// figures from the results file.
#include "peer_report.hpp"

#include <string>
#include <variant>
#include <vector>

#include "bench/peer_view/recompute.hpp"
#include "bench/peer_view/render.hpp"
#include "bench/results/format.hpp"
#include "bench/results/request_log.hpp"

namespace bench::app {

namespace {

// The tools asked for, in --as's order; nullopt once the unknown one is named on `err`.
std::optional<std::vector<const peer_view::ToolRules*>> tools_asked(
    const std::vector<std::string>& ids, std::ostream& err) {
  std::vector<const peer_view::ToolRules*> tools;
  for (const std::string& id : ids) {
    const peer_view::ToolRules* tool = peer_view::find_tool(id);
    if (tool == nullptr) {
      err << "bench report: error: --as " << id
          << ": no such tool (tools: " << peer_view::tool_ids() << ")\n";
      return std::nullopt;
    }
    tools.push_back(tool);
  }
  return tools;
}

}  // namespace

std::optional<std::vector<peer_view::PeerView>> recompute_peer_views(
    const cli::ReportOptions& options, const results::ResultsFile& file, std::ostream& err) {
  if (file.kind != results::Kind::run) {
    err << "bench report: error: --as reads one run's results and its log; this file is a "
        << results::kind_name(file.kind) << "'s\n";
    return std::nullopt;
  }
  if (options.requests_path.empty()) {
    err << "bench report: error: --as needs the run's request log: --requests PATH (the file "
           "its --save-requests wrote)\n";
    return std::nullopt;
  }
  const auto tools = tools_asked(options.as, err);
  if (!tools) return std::nullopt;
  auto log = results::read_request_log(options.requests_path);
  if (const auto* error = std::get_if<results::FormatError>(&log)) {
    err << "bench report: error: " << error->message << "\n";
    return std::nullopt;
  }
  const auto& requests = std::get<std::vector<results::LoggedRequest>>(log);
  const peer_view::RunFacts run{.duration_s = file.results.value("duration", 0.0)};
  std::vector<peer_view::PeerView> views;
  for (const peer_view::ToolRules* tool : *tools) {
    views.push_back(peer_view::recompute(*tool, requests, run));
  }
  return views;
}

void print_peer_views(const std::vector<peer_view::PeerView>& views,
                      const cli::ReportOptions& options, const nlohmann::json& run,
                      std::ostream& out) {
  if (options.format == cli::OutputFormat::json) {
    out << peer_view::to_json(views, run).dump(2) << "\n";
  } else {
    out << peer_view::render_text(views, run);
  }
}

}  // namespace bench::app
