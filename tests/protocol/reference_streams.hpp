#pragma once
// The reference streams' tests share: the names of a directory's transcripts (NAME.sse beside
// NAME.expected.json), and one StreamReader fed a transcript's pieces as the engine feeds it
// (piece k read at (k + 1) * 1000 ns, stopped when the reader asks to stop).
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "bench/metrics/request_record.hpp"
#include "bench/protocol/endpoint.hpp"
#include "bench/protocol/stream_reader.hpp"

namespace bench::testing {

/// The stems of `dir`'s *.sse files, sorted.
inline std::vector<std::string> sse_stream_names(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".sse") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// A 200 event stream of `endpoint` read from `pieces` into a fresh record.
inline metrics::RequestRecord read_reference_stream(protocol::Endpoint endpoint,
                                                    const std::vector<std::string_view>& pieces) {
  metrics::RequestRecord record;
  protocol::StreamReader reader;
  reader.read_as(endpoint);
  reader.begin(&record);
  reader.on_headers(200, "text/event-stream; charset=utf-8");
  std::int64_t stamp = 0;
  for (const std::string_view piece : pieces) {
    if (!reader.on_body(piece, stamp += 1000)) break;
  }
  reader.finish({metrics::ErrorClass::none, "", 1'000'000'000});
  return record;
}

}  // namespace bench::testing
