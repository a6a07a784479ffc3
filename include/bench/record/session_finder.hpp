#pragma once
// Which session a recorded request belongs to, for the Weka-format traces (weka_trace.hpp).
// HTTP has no sessions; a chat client resends its history, and some clients name their session
// in a header. So, in this order:
//   1. history: the request continues the session of an earlier request whose messages are the
//      leading messages of its own (the longest such; equal messages, a retry, count too), two
//      messages being equal when their roles and their counted text (prompt_blocks.hpp) are;
//   2. header: else, when it carries a session header (its value compared, never kept), the
//      session that header value named last;
//   3. else it starts a session of its own.
// Both rules stay within a header value: a request never continues a session whose requests
// carried another session header value (or none, when it carries one), however alike.
//
// A subagent (a fresh context: its first request shares no message list with its parent's)
// is a session of its own without a header, and joins its parent's session when it sends the
// same header value as its parent. A client that rewrites its history (compaction, dropped
// reasoning) starts a new session at each rewrite unless its header ties them.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace bench::record {

class SessionFinder {
 public:
  /// `salt`: the recording's secret, so the hashes kept are of no use outside it.
  explicit SessionFinder(std::uint64_t salt) : salt_(salt) {}

  /// The session (0, 1, ... in order of their first request) of a request with these messages
  /// (an array) and session header value ("" when it carried none); remembers the request.
  std::size_t session_of(const nlohmann::json& messages, std::string_view header_value);

  std::size_t sessions() const { return sessions_; }

 private:
  std::uint64_t salt_;
  std::size_t sessions_ = 0;
  // The chained hash of each earlier request's whole message list (its header value first)
  // -> the session it belongs to; the latest request of that list wins.
  std::unordered_map<std::uint64_t, std::size_t> by_history_;
  // The salted hash of a header value -> the session it named last.
  std::unordered_map<std::uint64_t, std::size_t> by_header_;
};

}  // namespace bench::record
