// Which peer's command line this is: told by the flags, backends and datasets only one of the
// peers has (vLLM vllm/benchmarks/serve.py add_cli_args, SGLang
// python/sglang/benchmark/serving.py), or by --dialect.
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "bench/cli/dialect.hpp"
#include "bench/cli/values.hpp"
#include "peer_reading.hpp"

namespace bench::cli {

namespace {

struct Sign {
  std::string_view word;
  Dialect dialect;
};

// Flags only one peer has (bench's aliases of a peer's flag, such as --num-warmups, cannot tell:
// CLI11 counts an option, not the name it was given by).
constexpr Sign kFlagSigns[] = {
    {"--save-result", Dialect::vllm},
    {"--save-detailed", Dialect::vllm},
    {"--result-dir", Dialect::vllm},
    {"--result-filename", Dialect::vllm},
    {"--append-result", Dialect::vllm},
    {"--label", Dialect::vllm},
    {"--metadata", Dialect::vllm},
    {"--percentile-metrics", Dialect::vllm},
    {"--metric-percentiles", Dialect::vllm},
    {"--random-prefix-len", Dialect::vllm},
    {"--prefix-repetition-prefix-len", Dialect::vllm},
    {"--prefix-repetition-suffix-len", Dialect::vllm},
    {"--prefix-repetition-num-prefixes", Dialect::vllm},
    {"--prefix-repetition-output-len", Dialect::vllm},
    {"--custom-output-len", Dialect::vllm},
    {"--gsp-num-groups", Dialect::sglang},
    {"--gsp-prompts-per-group", Dialect::sglang},
    {"--gsp-system-prompt-len", Dialect::sglang},
    {"--gsp-question-len", Dialect::sglang},
    {"--gsp-output-len", Dialect::sglang},
    {"--extra-request-body", Dialect::sglang},
    {"--disable-ignore-eos", Dialect::sglang},
    {"--disable-stream", Dialect::sglang},
    {"--mooncake-slowdown-factor", Dialect::sglang},
    {"--mooncake-num-rounds", Dialect::sglang},
    {"--served-model-name", Dialect::sglang},
    {"--tag", Dialect::sglang},
    {"--random-input", Dialect::sglang},
    {"--random-output", Dialect::sglang},
    {"--num-prompt", Dialect::sglang},
    {"--apply-chat-template", Dialect::sglang},
    {"--tokenize-prompt", Dialect::sglang},
    {"--output-details", Dialect::sglang},
    {"--skip-chat-template", Dialect::vllm},
    {"--use-chat-template", Dialect::vllm},
    {"--top-p", Dialect::vllm},
    {"--top-k", Dialect::vllm},
    {"--min-p", Dialect::vllm},
    {"--repetition-penalty", Dialect::vllm},
};

// --dataset-name values only one peer takes.
constexpr Sign kDatasetSigns[] = {
    {"prefix_repetition", Dialect::vllm},
    {"custom", Dialect::vllm},
    {"burstgpt", Dialect::vllm},
    {"sonnet", Dialect::vllm},
    {"generated-shared-prefix", Dialect::sglang},
    {"random-ids", Dialect::sglang},
    {"mooncake", Dialect::sglang},
};

// What told each dialect, e.g. "--save-result" or "--backend sglang-oai".
struct Evidence {
  std::vector<std::string> vllm;
  std::vector<std::string> sglang;
  void add(Dialect dialect, std::string what) {
    (dialect == Dialect::vllm ? vllm : sglang).push_back(std::move(what));
  }
};

Evidence evidence_of(const CLI::App& app, const RawPeerFlags& peer) {
  Evidence evidence;
  for (const Sign& sign : kFlagSigns) {
    if (given(app, sign.word)) evidence.add(sign.dialect, std::string(sign.word));
  }
  if (!peer.endpoint_path.empty()) {
    evidence.add(Dialect::vllm, fmt::format("--endpoint {}", peer.endpoint_path));
  }
  for (const PeerBackend& backend : peer_backends()) {
    if (backend.name == peer.backend && backend.only) {
      evidence.add(*backend.only, fmt::format("--backend {}", peer.backend));
    }
  }
  for (const Sign& sign : kDatasetSigns) {
    if (sign.word == peer.dataset_name) {
      evidence.add(sign.dialect, fmt::format("--dataset-name {}", peer.dataset_name));
    }
  }
  return evidence;
}

// Whether any flag of the peers' group was given (a peer flag that tells no dialect).
bool any_peer_flag(const CLI::App& app, const RawPeerFlags& peer) {
  if (!peer.endpoint_path.empty()) return true;
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_group() == kPeerFlagsGroup && option->count() > 0) return true;
  }
  return false;
}

}  // namespace

std::optional<DialectReading> dialect_of(const CLI::App& app, const RawPeerFlags& peer) {
  if (peer.dialect == "vllm") return DialectReading{Dialect::vllm, "--dialect vllm"};
  if (peer.dialect == "sglang") return DialectReading{Dialect::sglang, "--dialect sglang"};
  const Evidence evidence = evidence_of(app, peer);
  if (!evidence.vllm.empty() && !evidence.sglang.empty()) {
    throw UsageError(fmt::format(
        "this command line has vLLM's {} and SGLang's {}: add --dialect vllm or --dialect sglang "
        "to say whose meanings to read it with",
        evidence.vllm.front(), evidence.sglang.front()));
  }
  // vLLM's result flags (--save-result, --percentile-metrics, ...) choose what is written, in
  // any dialect: they tell whose line it is, but alone leave it bench's own (a bench run that
  // also writes vLLM's file). A flag of the peers' group, or an --endpoint path, makes it theirs.
  if (!any_peer_flag(app, peer)) return std::nullopt;
  if (!evidence.sglang.empty()) return DialectReading{Dialect::sglang, evidence.sglang.front()};
  if (!evidence.vllm.empty()) return DialectReading{Dialect::vllm, evidence.vllm.front()};
  return DialectReading{Dialect::vllm,
                        "none of its flags is one peer's alone; --dialect sglang reads it as "
                        "SGLang's"};
}

}  // namespace bench::cli
