#include "bench/wire/recording.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bench/util/atomic_file.hpp"

namespace bench::wire {

namespace {

using nlohmann::json;

std::string_view how_name(Close::How how) {
  switch (how) {
    case Close::How::fin: return "fin";
    case Close::How::rst: return "rst";
    case Close::How::open: break;
  }
  return "open";
}

json to_json(const Exchange& exchange) {
  json headers = json::array();
  for (const auto& [name, value] : exchange.request_headers) headers.push_back({name, value});
  json reads = json::array();
  for (const Read& read : exchange.reads) reads.push_back({read.at_ns, read.end});
  json close = {{"how", how_name(exchange.close.how)}};
  if (exchange.close.how != Close::How::open) {
    close["after_last_byte_ns"] = exchange.close.after_last_byte_ns;
    close["idle"] = exchange.close.idle;
  }
  return {{"format", kFormatVersion},
          {"connection", exchange.connection},
          {"request",
           {{"method", exchange.shape.method},
            {"path", exchange.shape.path},
            {"stream", exchange.shape.stream},
            {"headers", std::move(headers)}}},
          {"response", {{"status", exchange.status}, {"reads", std::move(reads)}}},
          {"close", std::move(close)}};
}

std::string read_whole(const std::filesystem::path& path, bool& ok) {
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Fills `exchange` from its JSON; returns what is wrong, or "".
std::string from_json(const json& doc, Exchange& exchange) {
  if (!doc.is_object() || doc.value("format", 0) != kFormatVersion) {
    return "not a wire recording of format " + std::to_string(kFormatVersion);
  }
  const json& request = doc.at("request");
  exchange.connection = doc.value("connection", std::int64_t{0});
  exchange.shape.method = request.at("method").get<std::string>();
  exchange.shape.path = request.at("path").get<std::string>();
  exchange.shape.stream = request.value("stream", false);
  for (const json& header : request.value("headers", json::array())) {
    exchange.request_headers.emplace_back(header.at(0).get<std::string>(),
                                          header.at(1).get<std::string>());
  }
  const json& response = doc.at("response");
  exchange.status = response.value("status", 0);
  std::size_t previous = 0;
  for (const json& read : response.at("reads")) {
    Read entry{read.at(0).get<std::int64_t>(), read.at(1).get<std::size_t>()};
    if (entry.end < previous || entry.end > exchange.response.size()) {
      return "a read ends at byte " + std::to_string(entry.end) + ", outside the response's " +
             std::to_string(exchange.response.size()) + " bytes or before the read before it";
    }
    previous = entry.end;
    exchange.reads.push_back(entry);
  }
  if (previous != exchange.response.size()) {
    return "the reads cover " + std::to_string(previous) + " of the response's " +
           std::to_string(exchange.response.size()) + " bytes";
  }
  const json& close = doc.at("close");
  const std::string how = close.value("how", "open");
  if (how != "open" && how != "fin" && how != "rst") return "close.how '" + how + "' is unknown";
  exchange.close.how = how == "fin"   ? Close::How::fin
                       : how == "rst" ? Close::How::rst
                                      : Close::How::open;
  exchange.close.after_last_byte_ns = close.value("after_last_byte_ns", std::int64_t{0});
  exchange.close.idle = close.value("idle", false);
  return "";
}

}  // namespace

Shape shape_of(std::string_view method, std::string_view target, std::string_view body) {
  Shape shape{std::string(method), std::string(target.substr(0, target.find('?'))), false};
  const json parsed = json::parse(body.begin(), body.end(), nullptr, false);
  if (parsed.is_object()) {
    const auto stream = parsed.find("stream");
    shape.stream = stream != parsed.end() && stream->is_boolean() && stream->get<bool>();
  }
  return shape;
}

std::string describe(const Shape& shape) {
  return shape.method + " " + shape.path + (shape.stream ? " stream" : "");
}

int status_of(std::string_view response) {
  // "HTTP/1.1 200 OK": the three digits after the first space.
  if (response.substr(0, 5) != "HTTP/") return 0;
  const std::size_t space = response.find(' ');
  if (space == std::string_view::npos || response.size() < space + 4) return 0;
  int status = 0;
  for (std::size_t k = space + 1; k < space + 4; ++k) {
    if (response[k] < '0' || response[k] > '9') return 0;
    status = status * 10 + (response[k] - '0');
  }
  return status;
}

void write_exchange(const std::string& dir, const Exchange& exchange) {
  const std::string stem = dir + "/" + exchange.name;
  write_file_atomically(stem + ".request", exchange.request_body);
  write_file_atomically(stem + ".response", exchange.response);
  write_file_atomically(stem + ".json", to_json(exchange).dump(1) + "\n");
}

std::variant<std::vector<Exchange>, WireError> load_recording(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::is_directory(dir, error)) return WireError{"'" + dir + "' is not a directory"};
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<Exchange> exchanges;
  for (const fs::path& file : files) {
    Exchange exchange;
    exchange.name = file.stem().string();
    fs::path stem = file;
    bool ok_json = false, ok_request = false, ok_response = false;
    const std::string text = read_whole(file, ok_json);
    exchange.request_body = read_whole(stem.replace_extension(".request"), ok_request);
    exchange.response = read_whole(stem.replace_extension(".response"), ok_response);
    if (!ok_json || !ok_request || !ok_response) {
      return WireError{"'" + file.string() + "': its .request or .response file is missing"};
    }
    std::string wrong;
    try {
      wrong = from_json(json::parse(text), exchange);
    } catch (const json::exception& bad) {
      wrong = bad.what();
    }
    if (!wrong.empty()) return WireError{"'" + file.string() + "': " + wrong};
    exchanges.push_back(std::move(exchange));
  }
  if (exchanges.empty()) return WireError{"'" + dir + "' holds no exchange (NNNN.json)"};
  return exchanges;
}

}  // namespace bench::wire
