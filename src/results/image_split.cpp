#include "bench/results/image_split.hpp"

#include "bench/results/format.hpp"

namespace bench::results {

bool sent_images(const nlohmann::json& config) {
  return config.is_object() &&
         (config.contains(key::images_per_request) || config.contains(key::dataset_images));
}

ImageInputSplit image_input_split(const metrics::RunSummary& summary) {
  ImageInputSplit split;
  split.requests = summary.completed;
  // Usage for every completed request, or the mean is over some other set than the text's.
  if (summary.completed > 0 && summary.input_tokens_from_usage == summary.completed) {
    split.input = summary.mean_prompt_tokens;
  }
  if (summary.prompt_counts_paired) split.text = summary.mean_client_prompt_tokens;
  if (split.input && split.text) split.images = *split.input - *split.text;
  return split;
}

nlohmann::json image_input_split_json(const ImageInputSplit& split) {
  return {{std::string(key::image_split_requests), split.requests},
          {std::string(key::mean_input_tokens), known_or_null(split.input)},
          {std::string(key::mean_text_tokens), known_or_null(split.text)},
          {std::string(key::mean_image_tokens_estimate), known_or_null(split.images)}};
}

std::optional<ImageInputSplit> image_input_split_of(const nlohmann::json& run) {
  if (!run.is_object()) return std::nullopt;
  const auto found = run.find(key::image_input_split);
  if (found == run.end() || !found->is_object()) return std::nullopt;
  ImageInputSplit split;
  const auto requests = found->find(key::image_split_requests);
  if (requests != found->end() && requests->is_number_integer()) {
    split.requests = requests->get<std::int64_t>();
  }
  split.input = number_at(*found, key::mean_input_tokens);
  split.text = number_at(*found, key::mean_text_tokens);
  split.images = number_at(*found, key::mean_image_tokens_estimate);
  return split;
}

}  // namespace bench::results
