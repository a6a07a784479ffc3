#include "bench/live/listener.hpp"

#include <sys/socket.h>

#include <chrono>
#include <utility>

#include <fmt/format.h>
#include <httplib.h>

#include "bench/live/exposition.hpp"
#include "bench/live/json_line.hpp"

namespace bench::live {

namespace {

// Threads answering scrapes: a few suffice (Prometheus keeps one connection per target), and
// one held by a client that never reads is freed by the timeouts below.
constexpr std::size_t kServingThreads = 4;
constexpr time_t kIoTimeoutS = 5;

// SO_REUSEADDR alone: httplib's default also sets SO_REUSEPORT, with which a second process
// binds a port the first one holds and the two share its scrapes; bench wants the refusal.
void reuse_address_only(socket_t sock) {
  int yes = 1;
  setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
}

void serve_routes(httplib::Server& server, const SnapshotBoard& board) {
  server.Get("/metrics", [&board](const httplib::Request&, httplib::Response& response) {
    const std::shared_ptr<const Snapshot> snapshot = board.latest();
    if (!snapshot) {
      response.status = 503;
      return;
    }
    response.set_content(prometheus_text(*snapshot), kExpositionContentType);
  });
  server.Get("/api/live", [&board](const httplib::Request&, httplib::Response& response) {
    const std::shared_ptr<const Snapshot> snapshot = board.latest();
    if (!snapshot) {
      response.status = 503;
      return;
    }
    response.set_content(json_line(*snapshot) + "\n", "application/json");
  });
}

}  // namespace

std::variant<std::unique_ptr<Listener>, std::string> Listener::open(const std::string& host,
                                                                    int port,
                                                                    const SnapshotBoard& board) {
  auto server = std::make_unique<httplib::Server>();
  // httplib's interface takes ownership of a raw pointer here.
  server->new_task_queue = [] { return new httplib::ThreadPool(kServingThreads); };
  server->set_socket_options(reuse_address_only);
  server->set_read_timeout(kIoTimeoutS);
  server->set_write_timeout(kIoTimeoutS);
  server->set_keep_alive_timeout(kIoTimeoutS);
  serve_routes(*server, board);
  int bound = port;
  if (port == 0) {
    bound = server->bind_to_any_port(host);
  } else if (!server->bind_to_port(host, port)) {
    bound = -1;
  }
  if (bound <= 0) {
    return fmt::format(
        "--metrics-listen {}:{}: cannot listen there (the port is in use, or the "
        "address is not this machine's)",
        host, port);
  }
  // The constructor is private (open() is the way in), so make_unique cannot reach it.
  return std::unique_ptr<Listener>(new Listener(std::move(server), host, bound));
}

Listener::Listener(std::unique_ptr<httplib::Server> server, std::string host, int port)
    : server_(std::move(server)), host_(std::move(host)), port_(port) {
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  // stop() does nothing to a server not yet running, so a listener destroyed at once would
  // never return from its join: wait until the thread has started listening.
  for (int waited_ms = 0; !server_->is_running() && waited_ms < 5000; ++waited_ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

Listener::~Listener() {
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string Listener::base_url() const {
  const bool ipv6 = host_.find(':') != std::string::npos;
  return ipv6 ? fmt::format("http://[{}]:{}", host_, port_)
              : fmt::format("http://{}:{}", host_, port_);
}

}  // namespace bench::live
