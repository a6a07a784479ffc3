#pragma once
// `bench record`: a pass-through HTTP/1.1 proxy on loopback that forwards every exchange
// between a client and a server unchanged and writes each one into a wire recording
// (bench/wire/recording.hpp, docs/wire-corpus.md): the request with its credentials redacted,
// the response's bytes with the time each read arrived, and how the server closed the connection;
// and/or, with --weka-trace, the completions as Weka-format traces of counts and hashes, no text
// (weka_trace.hpp).
#include <atomic>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "bench/util/stop_flag.hpp"

namespace bench::record {

struct RecordOptions {
  std::string upstream_url;               // "http://host:port": the server recorded
  std::string listen_host = "127.0.0.1";  // where clients connect
  std::uint16_t listen_port = 0;          // 0 = any free port (announced on stderr)
  std::string out_dir;  // --out: the wire recording's directory (created if missing); "": none
  // --weka-trace: the Weka-format traces' directory (created if missing); "": none. One of the
  // two is given.
  std::string weka_trace_dir;
  std::string tokenizer_path;  // --tokenizer: the traces' blocks in its tokens; "": in words
  // --session-header: the headers whose value names a request's session (session_finder.hpp),
  // the first one a request carries counting.
  std::vector<std::string> session_headers = {"X-Session-Id"};
};

/// The upstream server's address, from its URL.
struct Upstream {
  std::string host;
  std::uint16_t port = 80;
};

/// "http://host[:port][/]" into its host and port; an error message otherwise (https, a path
/// other than "/", userinfo: the proxy forwards request targets unchanged, in the clear).
std::variant<Upstream, std::string> parse_upstream(const std::string& url);

/// Runs the proxy until `stop` becomes true, then writes every exchange whose response is
/// complete (and the traces) and returns an exit code (0; 2 for bad options, found before
/// listening; 3 when it cannot listen or write). Says what it does on stderr.
int run_record(const RecordOptions& options, const StopFlag& stop);

}  // namespace bench::record
