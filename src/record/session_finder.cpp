#include "bench/record/session_finder.hpp"

#include <string>
#include <vector>

#include "bench/record/prompt_blocks.hpp"

#include "salted_hash.hpp"

namespace bench::record {

std::size_t SessionFinder::session_of(const nlohmann::json& messages,
                                      std::string_view header_value) {
  // prefixes[k]: the hash of the header value and the first k + 1 messages, each its role and
  // the text that counts (prompt_blocks.hpp): what a client marks on a message it resends
  // (cache_control, a name, key order) does not make it another message.
  const std::uint64_t header = chain(chain_start(salt_), text_hash(header_value));
  std::vector<std::uint64_t> prefixes;
  std::uint64_t so_far = header;
  for (const nlohmann::json& message : messages) {
    const auto role = message.is_object() ? message.find("role") : message.end();
    so_far = chain(so_far, text_hash(role != message.end() && role->is_string()
                                         ? role->get_ref<const std::string&>()
                                         : std::string("user")));
    so_far = chain(so_far, text_hash(message_text(message)));
    prefixes.push_back(so_far);
  }
  std::size_t session = sessions_;
  bool found = false;
  for (auto it = prefixes.rbegin(); it != prefixes.rend() && !found; ++it) {
    if (const auto known = by_history_.find(*it); known != by_history_.end()) {
      session = known->second;
      found = true;
    }
  }
  if (!found && !header_value.empty()) {
    if (const auto named = by_header_.find(header); named != by_header_.end()) {
      session = named->second;
      found = true;
    }
  }
  if (!found) ++sessions_;
  if (!prefixes.empty()) by_history_[prefixes.back()] = session;
  if (!header_value.empty()) by_header_[header] = session;
  return session;
}

}  // namespace bench::record
