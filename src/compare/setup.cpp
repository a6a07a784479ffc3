// What made each side of a comparison, shown before the figures (issue 45: for someone hunting
// a regression, what changed around the numbers first): the server as it named itself, the
// client's provenance, and whose format a peer's file is in.
#include <string>
#include <string_view>
#include <vector>

#include "bench/compare/compare.hpp"
#include "bench/results/format.hpp"
#include "bench/results/peer_file_read.hpp"
#include "bench/results/provenance.hpp"

namespace bench::compare {

namespace {

using nlohmann::json;

// The run whose setup a file records: a run, or a sweep's first point (a sweep's points share
// one server and one client).
const json& setup_run(const json& results) {
  const auto points = results.find(results::key::points);
  if (points != results.end() && points->is_array() && !points->empty()) return points->front();
  return results;
}

json field(const json& run, std::string_view block, std::string_view key) {
  const auto found = run.find(block);
  if (found == run.end() || !found->is_object()) return json();
  return found->value(std::string(key), json());
}

// Whose format the file is in: bench's, or a peer's (written by the peer's client, or by bench in
// the peer's dialect; the file does not say which). Only an item when a side is a peer's.
json file_format(const json& run) {
  const auto tool = run.find(results::kPeerFileKey);
  if (tool == run.end()) return "bench's";
  const results::PeerFileTool* peer =
      tool->is_string() ? results::peer_file_tool_info(tool->get<std::string>()) : nullptr;
  return peer != nullptr ? std::string(peer->title) + "'s" : std::string("a peer's");
}

}  // namespace

std::vector<SetupItem> setup_items(const json& base, const json& next) {
  const json& a = setup_run(base);
  const json& b = setup_run(next);
  struct Source {
    std::string_view block;
    std::string_view key;
    std::string_view label;
  };
  std::vector<Source> sources = {{results::key::server, "family", "server engine"},
                                 {results::key::server, "version", "server version"},
                                 {results::key::server, "model", "server model"},
                                 {results::key::server, "max_model_len", "max context (tokens)"}};
  for (const results::ProvenanceItem& item : results::provenance_items()) {
    sources.push_back({results::key::provenance, item.key, item.label});
  }
  std::vector<SetupItem> items;
  if (a.contains(results::kPeerFileKey) || b.contains(results::kPeerFileKey)) {
    items.push_back({"results file format", file_format(a), file_format(b)});
  }
  for (const Source& source : sources) {
    SetupItem item{std::string(source.label), field(a, source.block, source.key),
                   field(b, source.block, source.key)};
    if (!item.base.is_null() || !item.next.is_null()) items.push_back(std::move(item));
  }
  return items;
}

}  // namespace bench::compare
