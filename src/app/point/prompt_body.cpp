#include "bench/app/point/prompt_body.hpp"

#include <utility>

#include "bench/images/image_parts.hpp"

namespace bench::app {

std::string prompt_body(const protocol::RequestOptions& request, const workload::Prompt& prompt,
                        const std::function<std::vector<std::string>()>& image_urls) {
  if (!prompt.prompt_ids.empty()) {
    return protocol::build_token_ids_request_body(request, prompt.prompt_ids);
  }
  if (!protocol::takes_messages(request.endpoint)) {
    return protocol::build_request_body(request, workload::completion_prompt(prompt));
  }
  nlohmann::json messages = workload::chat_messages(prompt);
  if (image_urls) {
    std::vector<std::string> urls = image_urls();
    if (!urls.empty()) messages = images::with_images(std::move(messages), std::move(urls));
  }
  return protocol::build_chat_request_body(request, messages);
}

}  // namespace bench::app
