// --dataset-name and the peers' dataset flags, read into bench's datasets with the peer's
// meanings: vLLM vllm/benchmarks/datasets/datasets.py (RandomDataset,
// PrefixRepetitionRandomDataset, CustomDataset) and serve.py's defaults; SGLang
// python/sglang/benchmark/serving.py (sample_random_requests,
// sample_generated_shared_prefix_requests, the argument defaults).
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/cli/values.hpp"
#include "peer_reading.hpp"

namespace bench::cli {

namespace {

using workload::DatasetKind;

// The datasets the peers have and bench does not, and what to use instead.
std::string missing_dataset(const std::string& name) {
  if (name == "burstgpt") {
    return "--dataset-name burstgpt: vLLM's sends the CSV's lengths at --request-rate; bench "
           "replays the trace's arrivals too: --dataset trace --trace-format burstgpt";
  }
  if (name == "mooncake") {
    return "--dataset-name mooncake: use bench's --dataset trace --trace-format mooncake "
           "--dataset-path FILE (SGLang's --mooncake-* flags are not read)";
  }
  return fmt::format(
      "--dataset-name {}: not a dataset bench has; it reads random, sharegpt, random-ids, "
      "generated-shared-prefix, prefix_repetition and custom (and --dataset trace for "
      "mooncake, azure and burstgpt traces)",
      name);
}

DatasetKind dataset_kind_of(const PeerReading& r, const std::string& name) {
  if (name == "random") return DatasetKind::random;
  if (name == "sharegpt") return DatasetKind::sharegpt;
  if (name == "custom") return DatasetKind::jsonl;
  if (name == "generated-shared-prefix" || name == "prefix_repetition") {
    return DatasetKind::shared_prefix;
  }
  // SGLang's random-ids: prompts of random token ids, which bench sends as ids where the API
  // takes them (completions) and as text of the same length otherwise.
  if (name == "random-ids") {
    return protocol::endpoint_spec(r.run.endpoint).token_ids ? DatasetKind::random_ids
                                                             : DatasetKind::random;
  }
  throw UsageError(missing_dataset(name));
}

// vLLM's --random-range-ratio: a number r in [0, 1), or {"input": a, "output": b}.
void read_vllm_range_ratio(PeerReading& r, const std::string& text) {
  const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  const auto ratio_at = [&text](const nlohmann::json& value) {
    if (!value.is_number() || value.get<double>() < 0 || value.get<double>() > 1) {
      throw UsageError(fmt::format(
          "--random-range-ratio: '{}' is not a ratio in [0, 1] or {{\"input\": a, \"output\": b}}",
          text));
    }
    return value.get<double>();
  };
  if (parsed.is_object()) {
    r.run.dataset.range_ratio = ratio_at(parsed.value("input", nlohmann::json(0.0)));
    r.run.dataset.output_range_ratio = ratio_at(parsed.value("output", nlohmann::json(0.0)));
  } else {
    r.run.dataset.range_ratio = ratio_at(parsed.is_discarded() ? nlohmann::json() : parsed);
  }
}

// SGLang's --random-range-ratio r: lengths uniform in [max(int(L r), 1), L], r 0 by default.
void read_sglang_range_ratio(PeerReading& r, const std::string& text) {
  const nlohmann::json parsed = nlohmann::json::parse(text.empty() ? "0" : text, nullptr, false);
  if (!parsed.is_number() || parsed.get<double>() < 0 || parsed.get<double>() > 1) {
    throw UsageError(fmt::format("--random-range-ratio: '{}' is not a ratio in [0, 1]", text));
  }
  r.run.dataset.range_ratio = parsed.get<double>();
  r.run.dataset.range_rule = workload::RangeRule::below;
  r.note(fmt::format(
      "SGLang's --random-range-ratio {:g}: each input and output length uniform in [max(L x "
      "{:g}, 1), L] (SGLang lets an output's low end be 0; bench asks at least 1 token){}",
      r.run.dataset.range_ratio, r.run.dataset.range_ratio,
      text.empty() ? " (its default; 1 sends exactly L)" : ""));
}

// vLLM's --random-prefix-len P: the same P-long prefix before every prompt's own L (bench's
// --prefix-share P / (P + L) of a P + L prompt).
void read_prefix_len(PeerReading& r, std::int64_t prefix) {
  if (prefix == 0) return;
  const std::int64_t own = r.run.input_len;
  r.run.input_len = prefix + own;
  r.run.dataset.prefix_shares = {static_cast<double>(prefix) / static_cast<double>(prefix + own)};
  r.note(fmt::format(
      "--random-prefix-len {}: every prompt starts with the same {}-long system prompt before its "
      "own {} (bench's --prefix-share)",
      prefix, prefix, own));
}

// A length: the peer's flag, else bench's own flag, else the peer's default (said when it is not
// bench's). Returns whether the peer's default was taken.
bool read_length(const PeerReading& r, std::int64_t& to, const std::optional<std::int64_t>& peer,
                 std::string_view bench_flag, std::int64_t peer_default) {
  if (peer) {
    to = *peer;
  } else if (!given(r.app, bench_flag)) {
    const bool differs = to != peer_default;
    to = peer_default;
    return differs;
  }
  return false;
}

void read_random(PeerReading& r) {
  const RawPeerFlags& peer = r.raw.peer;
  read_length(r, r.run.input_len, peer.random_input_len, "--input-len", 1024);  // both peers'
  if (read_length(r, r.run.output_len, peer.random_output_len, "--output-len",
                  r.sglang() ? 1024 : 128)) {
    r.note("SGLang's --random-output-len default: 1024 (bench's own is 128)");
  }
  if (r.sglang() && !given(r.app, "--range-ratio")) {
    read_sglang_range_ratio(r, peer.random_range_ratio);
  } else if (!peer.random_range_ratio.empty()) {
    read_vllm_range_ratio(r, peer.random_range_ratio);
  }
  if (peer.random_prefix_len) read_prefix_len(r, *peer.random_prefix_len);
}

// SGLang's generated-shared-prefix: --gsp-* with its defaults (64 groups of 16, a 2048-long
// system prompt, 128-long questions, 256 max_tokens).
void read_generated_shared_prefix(PeerReading& r) {
  const RawPeerFlags& peer = r.raw.peer;
  read_length(r, r.run.dataset.prefix_groups, peer.gsp_num_groups, "--prefix-groups", 64);
  read_length(r, r.run.dataset.questions_per_group, peer.gsp_prompts_per_group,
              "--questions-per-group", 16);
  read_length(r, r.run.dataset.prefix_len, peer.gsp_system_prompt_len, "--prefix-len", 2048);
  read_length(r, r.run.input_len, peer.gsp_question_len, "--input-len", 128);
  read_length(r, r.run.output_len, peer.gsp_output_len, "--output-len", 256);
}

// vLLM's prefix_repetition: --prefix-repetition-num-prefixes prefixes (10) of -prefix-len (256),
// each request one of them and its own -suffix-len (256) text, -output-len (128) max_tokens; the
// requests are split evenly among the prefixes.
void read_prefix_repetition(PeerReading& r) {
  const RawPeerFlags& peer = r.raw.peer;
  read_length(r, r.run.dataset.prefix_groups, peer.prefix_repetition_num_prefixes,
              "--prefix-groups", 10);
  read_length(r, r.run.dataset.prefix_len, peer.prefix_repetition_prefix_len, "--prefix-len", 256);
  read_length(r, r.run.input_len, peer.prefix_repetition_suffix_len, "--input-len", 256);
  read_length(r, r.run.output_len, peer.prefix_repetition_output_len, "--output-len", 128);
  r.run.dataset.questions_per_group =
      std::max<std::int64_t>(1, r.run.num_prompts / r.run.dataset.prefix_groups);
  r.note(
      "prefix_repetition: bench's shared-prefix dataset (each group's prefix a system prompt, "
      "its lengths in words)");
}

// vLLM's custom dataset: JSONL of {"prompt"} lines, max_tokens --custom-output-len (256), or with
// -1 each line's own "output_tokens" (bench's jsonl also reads "max_tokens").
void read_custom(PeerReading& r) {
  const std::optional<std::int64_t> asked = r.raw.peer.custom_output_len;
  if (asked && (*asked == 0 || *asked < -1)) {
    throw UsageError(fmt::format("--custom-output-len: {} is not a length or -1", *asked));
  }
  if (asked == -1) {
    r.note(
        "--custom-output-len -1: each line's own \"output_tokens\"; lines without one get "
        "--output-len");
    return;
  }
  read_length(r, r.run.output_len, asked, "--output-len", 256);
}

// The flags a dataset reads; the others are said not to be read (the peers ignore them too).
void note_unread(PeerReading& r, DatasetKind kind, const std::string& name) {
  const RawPeerFlags& peer = r.raw.peer;
  const bool random = kind == DatasetKind::random || kind == DatasetKind::random_ids;
  const bool random_given = peer.random_input_len || peer.random_output_len ||
                            !peer.random_range_ratio.empty() || peer.random_prefix_len;
  if (!random && random_given)
    r.note(fmt::format("--random-*: not read by --dataset-name {}", name));
  const bool gsp_given = peer.gsp_num_groups || peer.gsp_prompts_per_group ||
                         peer.gsp_system_prompt_len || peer.gsp_question_len || peer.gsp_output_len;
  if (name != "generated-shared-prefix" && gsp_given) {
    r.note(fmt::format("--gsp-*: not read by --dataset-name {}", name));
  }
}

void refuse_bench_twins(const PeerReading& r) {
  const RawPeerFlags& peer = r.raw.peer;
  refuse_both(r, "--dataset-name", !peer.dataset_name.empty(), "--dataset");
  refuse_both(r, "--random-input-len", peer.random_input_len.has_value(), "--input-len");
  refuse_both(r, "--random-output-len", peer.random_output_len.has_value(), "--output-len");
  refuse_both(r, "--num-prompt", given(r.app, "--num-prompt"), "--num-prompts");
  refuse_both(r, "--random-range-ratio", !peer.random_range_ratio.empty(), "--range-ratio");
  refuse_both(r, "--random-prefix-len", peer.random_prefix_len.has_value(), "--prefix-share");
  refuse_both(r, "--gsp-num-groups", peer.gsp_num_groups.has_value(), "--prefix-groups");
  refuse_both(r, "--gsp-prompts-per-group", peer.gsp_prompts_per_group.has_value(),
              "--questions-per-group");
  refuse_both(r, "--gsp-system-prompt-len", peer.gsp_system_prompt_len.has_value(), "--prefix-len");
}

}  // namespace

void refuse_both(const PeerReading& r, std::string_view peer_flag, bool peer_given,
                 std::string_view bench_flag) {
  if (peer_given && given(r.app, bench_flag)) {
    throw UsageError(
        fmt::format("{} and {}: both set the same thing; give one", peer_flag, bench_flag));
  }
}

std::int64_t requests_of(const PeerReading& r) {
  if (given(r.app, "--num-prompts") || given(r.app, "--num-prompt") ||
      r.run.dataset.kind != DatasetKind::shared_prefix) {
    return r.run.num_prompts;
  }
  return r.run.dataset.prefix_groups * r.run.dataset.questions_per_group;
}

void read_peer_dataset(PeerReading& r) {
  refuse_bench_twins(r);
  std::string name = r.raw.peer.dataset_name;
  if (name.empty()) {
    if (given(r.app, "--dataset")) return;  // bench's own dataset, with bench's flags
    name = r.sglang() ? "sharegpt" : "random";
    if (r.sglang()) r.note("the dataset: SGLang's default, sharegpt (bench's own is random)");
  }
  const DatasetKind kind = dataset_kind_of(r, name);
  r.run.dataset.kind = kind;
  // SGLang's random dataset cuts its prompts out of the ShareGPT file it is given; bench's are
  // its own text of the same lengths, so the file is not read.
  if ((kind == DatasetKind::random || kind == DatasetKind::random_ids) &&
      !r.run.dataset.path.empty()) {
    r.note(
        fmt::format("--dataset-path {}: not read by --dataset-name {} (bench's random prompts "
                    "are its own text of the lengths asked)",
                    r.run.dataset.path, name));
    r.run.dataset.path.clear();
  }
  note_unread(r, kind, name);
  if (kind == DatasetKind::sharegpt && r.run.dataset.path.empty()) {
    throw UsageError(
        "--dataset-name sharegpt: needs --dataset-path FILE (the peers download "
        "ShareGPT_V3_unfiltered_cleaned_split.json from Hugging Face; bench downloads nothing)");
  }
  if (kind == DatasetKind::random || kind == DatasetKind::random_ids) read_random(r);
  if (name == "generated-shared-prefix") read_generated_shared_prefix(r);
  if (name == "prefix_repetition") read_prefix_repetition(r);
  if (name == "custom") read_custom(r);
}

}  // namespace bench::cli
