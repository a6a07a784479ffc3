#pragma once
// Images in a chat request, in OpenAI's shape: the user's content becomes a list of parts, its
// text first, then one {"type":"image_url","image_url":{"url":"data:image/jpeg;base64,..."}}
// part an image. OpenAI's vision guide (https://platform.openai.com/docs/guides/images-vision,
// "Passing a Base64 encoded image") and vLLM's OpenAI-compatible server
// (https://docs.vllm.ai/en/v0.9.0/features/multimodal_inputs.html, "Online Serving": base64
// data URLs in image_url) take exactly this; SGLang's and llama.cpp's servers (mtmd) too.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/images/image_spec.hpp"

namespace bench::images {

/// The data URLs of request `request`'s images: spec.per_request fresh random images, each a
/// pure function of (nonce, request, its place), so no two requests of a run (nor, with a
/// nonce drawn per run, of two runs) send the same image.
std::vector<std::string> request_images(const ImageSpec& spec, std::uint64_t nonce,
                                        std::uint64_t request);

/// The nonce of one prompt stream (a point, a repeat) of a run: the same request number in
/// two points then draws other images.
std::uint64_t stream_nonce(std::uint64_t run_nonce, std::uint64_t stream);

/// One image's content part: {"type": "image_url", "image_url": {"url": data_url}}. The one
/// place that shape is written (a request's images, a session's history, the simulator's
/// reading of the Responses API's input_image).
nlohmann::json image_url_part(std::string data_url);

/// `messages` with `data_urls` appended as image_url parts to the last user message (whose
/// string content becomes a text part). Unchanged when there is no user message or no URL. The
/// URLs are moved in: a dataset's image may be megabytes.
nlohmann::json with_images(nlohmann::json messages, std::vector<std::string> data_urls);

}  // namespace bench::images
