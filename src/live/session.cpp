#include "bench/live/session.hpp"

#include <chrono>
#include <thread>
#include <utility>

namespace bench::live {

Session::Session(const LiveOptions& options) : options_(options) {}

std::variant<std::unique_ptr<Session>, std::string> Session::open(const LiveOptions& options) {
  auto session = std::make_unique<Session>(options);
  if (options.listen_host) {
    auto opened = Listener::open(*options.listen_host, options.listen_port, session->board_);
    if (auto* error = std::get_if<std::string>(&opened)) return std::move(*error);
    session->listener_ = std::move(std::get<std::unique_ptr<Listener>>(opened));
  }
  if (!options.jsonl_path.empty()) {
    session->jsonl_.open(options.jsonl_path, std::ios::out | std::ios::trunc);
    if (!session->jsonl_) return "--live-jsonl " + options.jsonl_path + ": cannot be written";
  }
  if (!options.otlp_endpoint.empty()) {
    auto opened = OtlpExporter::open(options.otlp_endpoint);
    if (auto* error = std::get_if<std::string>(&opened)) return std::move(*error);
    session->exporter_ = std::move(std::get<std::unique_ptr<OtlpExporter>>(opened));
    session->feed_.export_spans_to(session->exporter_.get());
  }
  session->publisher_ =
      std::make_unique<Publisher>(session->feed_, session->board_, options.window_s, options.shard,
                                  options.jsonl_path.empty() ? nullptr : &session->jsonl_);
  return session;
}

Session::~Session() {
  publisher_.reset();  // its thread writes to the board and the file: stop it before them
}

std::string Session::base_url() const { return listener_ ? listener_->base_url() : ""; }

std::string Session::finish(const StopFlag& stop) {
  publisher_->finish();
  const std::string note = exporter_ ? exporter_->finish() : "";
  if (!listener_ || options_.linger_s <= 0) return note;
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(options_.linger_s));
  while (!stop.load() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return note;
}

}  // namespace bench::live
