#pragma once
// The input of a run that sent images (--images-per-request, or a dataset's image files) split
// into text and images. The server's usage counts a request's whole input, its images' tokens
// included; the run's tokenizer counts the text bench sent. Their difference is the images'
// share, an ESTIMATE: it also holds whatever else the server adds to the text (the chat
// template's tokens). Unknown when either count is unknown for any completed request (bench
// never pairs counts of different requests).
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/metrics/run_summary.hpp"

namespace bench::results {

struct ImageInputSplit {
  std::int64_t requests = 0;     // completed requests the means are over
  std::optional<double> input;   // mean prompt_tokens, from usage
  std::optional<double> text;    // mean tokens of the text, as the tokenizer counted it
  std::optional<double> images;  // input - text: an estimate by difference
};

/// Whether the run sent images: its config has images_per_request or dataset_images.
bool sent_images(const nlohmann::json& config);

ImageInputSplit image_input_split(const metrics::RunSummary& summary);

/// {"requests", "mean_input_tokens", "mean_text_tokens", "mean_image_tokens_estimate"}, nulls
/// for what is unknown.
nlohmann::json image_input_split_json(const ImageInputSplit& split);

/// The split as a results run object holds it (image_input_split); nullopt when it has none
/// (a run without images, or a file from before them).
std::optional<ImageInputSplit> image_input_split_of(const nlohmann::json& run);

}  // namespace bench::results
