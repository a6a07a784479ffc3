#include "html_slo_lines.hpp"

#include <optional>

#include "bench/util/text.hpp"

namespace bench::report::html {

namespace {

constexpr const char* kSloColor = "#b91c1c";

std::optional<SloLine> parse_line(const std::string& text) {
  for (std::string_view op : {"<=", ">="}) {
    const std::size_t at = text.find(op);
    if (at == std::string::npos || at == 0) continue;
    const std::optional<double> limit =
        util::parse_finite_double(std::string_view(text).substr(at + op.size()));
    if (!limit) return std::nullopt;
    return SloLine{text.substr(0, at), *limit, text};
  }
  return std::nullopt;
}

}  // namespace

std::vector<SloLine> search_slo_lines(const nlohmann::json& results) {
  std::vector<SloLine> lines;
  const auto search = results.find("search");
  if (search == results.end() || !search->is_object()) return lines;
  const auto slos = search->find("slos");
  if (slos == search->end() || !slos->is_array()) return lines;
  for (const nlohmann::json& slo : *slos) {
    if (!slo.is_string()) continue;
    std::optional<SloLine> line = parse_line(slo.get<std::string>());
    if (line && line->metric != "error_rate" && line->metric != "good_request_share") {
      lines.push_back(std::move(*line));
    }
  }
  return lines;
}

svg::Series slo_series(const SloLine& slo, double x_lo, double x_hi, std::string_view note) {
  svg::Series line{.name = "SLO " + slo.text + std::string(note), .color = kSloColor};
  line.dashed = true;
  line.x = {x_lo, x_hi};
  line.y = {slo.limit, slo.limit};
  return line;
}

}  // namespace bench::report::html
