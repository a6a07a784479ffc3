#pragma once
// The HTML report: one self-contained file (inline CSS and SVG; no script, no external font,
// no network) rendered from a results object, so the same page comes from a live run
// (--html) and from a saved file (bench report). Output tok/s leads every throughput table,
// with input and total beside it, each labelled with the source of its token counts; failures
// stand beside the throughput; every string from the user or the server is escaped.
#include <string>

#include <nlohmann/json.hpp>

namespace bench::report {

/// The page for a single run ({"kind": "run"}, or an older file without "kind") or a sweep
/// ({"kind": "sweep", "sweep": {...}, "points": [run, ...]}), with the keys README.md lists
/// under "JSON results". Keys an older file lacks (timeline, distributions, steady_state, ...)
/// leave their section out or mark it as not recorded.
/// `peer_views`, for a run: what other tools would have printed for it (`bench report --as`'s
/// JSON, peer_view/render.hpp), a section of its own.
/// Throws std::invalid_argument when `results` is not a JSON object, or a sweep's "points" is
/// not an array of objects.
std::string render_html_report(const nlohmann::json& results,
                               const nlohmann::json* peer_views = nullptr);

}  // namespace bench::report
