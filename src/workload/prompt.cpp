#include "bench/workload/prompt.hpp"

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/util/words.hpp"

namespace bench::workload {
namespace {

using nlohmann::json;
using util::count_words;

}  // namespace

std::string completion_prompt(const Prompt& prompt) {
  if (prompt.system_text.empty()) return prompt.text;
  return prompt.system_text + "\n\n" + prompt.text;
}

json chat_messages(const Prompt& prompt) {
  if (!prompt.messages.is_null()) return prompt.messages;
  json messages = json::array();
  if (!prompt.system_text.empty()) {
    messages.push_back(json{{"role", "system"}, {"content", prompt.system_text}});
  }
  messages.push_back(json{{"role", "user"}, {"content", prompt.text}});
  return messages;
}

std::optional<std::int64_t> content_words(const json& content) {
  if (content.is_null()) return 0;
  if (content.is_string()) return count_words(content.get_ref<const std::string&>());
  if (!content.is_array()) return std::nullopt;
  std::int64_t words = 0;
  for (const json& part : content) {
    if (!part.is_object()) return std::nullopt;
    const auto text = part.find("text");
    if (text != part.end() && text->is_string()) {
      words += count_words(text->get_ref<const std::string&>());
    }
  }
  return words;
}

}  // namespace bench::workload
