// render_report RESULTS.json OUT.html: the HTML report of a saved results file, for the browser
// check (scripts/render-report-check) run by CTest, before `bench report` exists to do it.
#include <exception>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "bench/report/html_report.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: render_report RESULTS.json OUT.html\n";
    return 2;
  }
  try {
    std::ifstream in(argv[1]);
    if (!in) throw std::runtime_error(std::string("cannot read ") + argv[1]);
    const std::string html = bench::report::render_html_report(nlohmann::json::parse(in));
    std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
    out << html;
    out.close();
    if (!out) throw std::runtime_error(std::string("cannot write ") + argv[2]);
  } catch (const std::exception& e) {
    std::cerr << "render_report: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
