#include "bench/app/plan/workload_fingerprint.hpp"

#include <fstream>

#include "bench/images/image_spec.hpp"
#include "bench/results/format.hpp"
#include "bench/util/fnv1a.hpp"
#include "bench/workload/generator_version.hpp"

namespace bench::app {

namespace {

using nlohmann::json;

// A dataset file by its size and contents: renamed or moved, it is the same workload.
json file_identity(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;
  util::Fnv1a64 hash;
  std::uint64_t size_bytes = 0;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    const auto got = static_cast<std::size_t>(in.gcount());
    hash.add(std::string_view(buffer, got));
    size_bytes += got;
  }
  if (in.bad()) return nullptr;
  return {{"size_bytes", size_bytes}, {"fnv1a64", hash.hex()}};
}

json dataset_definition(const cli::RunOptions& options) {
  json dataset = options.dataset;  // its kind and own parameters (workload/dataset.hpp)
  dataset.erase("dataset_path");
  // --prefix-share is a point's, as its load is (workload_fingerprint): a sweep's point at 0.5
  // is the same workload as a run at 0.5.
  dataset.erase("prefix_shares");
  dataset["file"] =
      options.dataset.path.empty() ? json(nullptr) : file_identity(options.dataset.path);
  dataset["input_len"] = options.input_len;
  dataset["output_len"] = options.output_len;
  // A tokenizer given makes lengths tokens: other prompts. Absent without one and with
  // --tokenizer words (what no tokenizer meant before bench found one), so earlier results'
  // fingerprints stand. One found is the model's: compare refuses words against tokens.
  if (!options.tokenizer.empty() && options.tokenizer != "words") {
    dataset["tokenizer"] = options.tokenizer;
    dataset["input_len_includes_template"] = options.input_len_includes_template;
  }
  return dataset;
}

json load_shape(const cli::RunOptions& options) {
  return {{"burstiness", options.burstiness},
          {"constant_rate", options.constant_rate},
          {"ramp_up_strategy", std::string(schedule::ramp_strategy_name(options.ramp_up_strategy))},
          {"ramp_up_start_rps", options.ramp_up_start_rps},
          {"ramp_up_end_rps", options.ramp_up_end_rps},
          {"num_prompts", options.num_prompts},
          {"duration_s", options.duration_s},
          {"duration_hard", options.duration_hard},
          {"warmup_requests", options.warmup_requests},
          {"warmup_duration_s", options.warmup_duration_s},
          // Resent prompts are another workload for a server with a prefix cache.
          {"reuse_prompts", options.reuse_prompts}};
}

json single_turn_definition(const cli::RunOptions& options) {
  return {
      {"generator_version", workload::kPromptGeneratorVersion},
      {"dataset", dataset_definition(options)},
      {"endpoint", std::string(protocol::endpoint_name(options.endpoint))},
      {"ignore_eos", options.ignore_eos},
      {"temperature", options.temperature ? json(*options.temperature) : json(nullptr)},
      {"extra_body", options.extra_body.empty() ? json::object() : json::parse(options.extra_body)},
      {"load", load_shape(options)},
      {"tokenizer", nullptr}};  // always null: a given tokenizer is the dataset's (above)
}

}  // namespace

json workload_definition(const cli::RunOptions& options) {
  json definition = single_turn_definition(options);
  // Tools and guided decoding change what the server generates and how fast (a tool call, a
  // JSON schema's constrained decode): another workload. Absent when not given, so earlier
  // fingerprints stand.
  if (!options.tools.empty()) definition["tools"] = json::parse(options.tools);
  if (!options.tool_choice.empty()) definition["tool_choice"] = options.tool_choice;
  if (!options.response_format.empty()) {
    definition["response_format"] = json::parse(options.response_format);
  }
  // Images are prefill of their own, their size sets its length: another workload. Absent
  // without them, so earlier fingerprints stand.
  if (options.images.enabled()) {
    definition["images"] = {
        {std::string(results::key::images_per_request), options.images.per_request},
        {std::string(results::key::image_size),
         images::size_name(options.images.width, options.images.height)},
        {std::string(results::key::image_format), images::format_name(options.images.format)}};
  }
  // Answers sent whole ("stream": false) are another measurement; absent when streamed, so
  // earlier fingerprints stand.
  if (options.no_stream) definition["stream"] = false;
  // Sessions are another workload; absent without them, so earlier fingerprints stand.
  if (options.multi_turn.enabled) {
    definition["multi_turn"] = workload::multi_turn_options_json(options.multi_turn);
  }
  return definition;
}

std::string workload_fingerprint(const json& definition, const std::vector<LoadPoint>& points) {
  json whole = definition;
  json loads = json::array();
  for (const LoadPoint& point : points) {
    json load = {{"concurrency", point.concurrency},
                 {"request_rate", results::rate_to_json(point.rate_per_s)}};
    // Absent without --prefix-share, so earlier fingerprints stand.
    if (point.prefix_share) load[std::string(results::key::prefix_share)] = *point.prefix_share;
    loads.push_back(std::move(load));
  }
  whole["points"] = loads;
  util::Fnv1a64 hash;
  hash.add(whole.dump());  // objects keep their keys sorted: the same definition, the same text
  return hash.hex();
}

}  // namespace bench::app
