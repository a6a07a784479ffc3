// vLLM's and SGLang's files and vLLM's summary block, per measurement (peer_files.hpp).
#include "bench/app/run/peer_files.hpp"

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "bench/report/vllm_summary.hpp"
#include "bench/results/peer_results.hpp"
#include "bench/util/atomic_file.hpp"

namespace bench::app {
namespace {

// Each measurement of the run: every point, or each of a repeated point's repeats.
void for_each_measurement(const RunResults& run,
                          const std::function<void(const PointReport&)>& visit) {
  for (const PointReport& point : run.points) {
    if (point.repeats.empty()) {
      visit(point);
    } else {
      for (const PointReport& repeat : point.repeats) visit(repeat);
    }
  }
}

// The file's content now; empty when it does not exist.
std::string existing_content(const std::string& path) {
  if (!std::filesystem::exists(path)) return {};
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  if (!in || !(content << in.rdbuf())) {
    throw std::runtime_error("cannot read '" + path + "' to append to it");
  }
  return content.str();
}

}  // namespace

bool write_vllm_files(const OutputPlan& output, const RunResults& run, std::ostream& err) {
  const results::PeerResultOptions& peer = output.peer_results;
  if (!peer.writes_vllm_file()) return true;
  const std::string date = results::now_vllm_date();
  std::set<std::string> written;  // paths this run wrote: a second measurement appends
  bool ok = true;
  for_each_measurement(run, [&](const PointReport& point) {
    const std::string path = results::vllm_result_path(point.context, peer, date);
    try {
      if (!peer.result_dir.empty()) std::filesystem::create_directories(peer.result_dir);
      const bool append = peer.append_result || written.count(path) > 0;
      const auto result = results::vllm_result(point.summary, point.context, peer, date);
      write_file_atomically(
          path, results::vllm_file_content(result, append, append ? existing_content(path) : ""));
      written.insert(path);
    } catch (const std::exception& error) {
      err << "bench: error: vLLM's result file: " << error.what() << "\n";
      ok = false;
    }
  });
  return ok;
}

void append_sglang_lines(const OutputPlan& output, const RunResults& run) {
  // SGLang opens --output-file "a" and writes json.dumps(result) + "\n" per run.
  std::string content = existing_content(output.output_file);
  for_each_measurement(run, [&](const PointReport& point) {
    content +=
        results::sglang_result_line(point.summary, point.context, output.peer_results).dump() +
        "\n";
  });
  write_file_atomically(output.output_file, content);
}

std::string vllm_summaries(const OutputPlan& output, const RunResults& run) {
  if (!output.peer_results.vllm_summary) return {};
  std::string text;
  for_each_measurement(run, [&](const PointReport& point) {
    text += report::render_vllm_summary(point.summary, point.context, output.peer_results);
  });
  return text;
}

}  // namespace bench::app
