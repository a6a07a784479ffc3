#pragma once
// What the readers of a peer's command line share (cli/dialect.hpp): the parsed flags, the
// options they fill, the dialect's name for the notes. Private to the cli module.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <CLI/CLI.hpp>

#include "bench/cli/options.hpp"
#include "bench/cli/run_flags.hpp"
#include "bench/protocol/endpoint.hpp"

namespace bench::cli {

/// Whether `flag` (any of an option's names) was given; false for a flag this command lacks.
inline bool given(const CLI::App& app, std::string_view flag) {
  const CLI::Option* option = app.get_option_no_throw(std::string(flag));
  return option != nullptr && option->count() > 0;
}

struct PeerReading {
  const CLI::App& app;
  RunOptions& run;
  RawRunFlags& raw;

  bool sglang() const { return run.dialect == Dialect::sglang; }
  std::string_view peer() const { return sglang() ? "SGLang's" : "vLLM's"; }
  std::string_view who() const { return sglang() ? "SGLang" : "vLLM"; }
  void note(std::string text) const { run.dialect_notes.push_back(std::move(text)); }
};

/// A --backend value: the API bench sends to for it, and the one peer that has it (nullopt:
/// both, as "vllm"). The one table of backends, read by the dialect's signs and the endpoint.
struct PeerBackend {
  std::string_view name;
  protocol::Endpoint endpoint;
  std::optional<Dialect> only;
};
std::span<const PeerBackend> peer_backends();

/// A peer's flag and bench's own for the same setting: refused, so neither is silently lost.
void refuse_both(const PeerReading& r, std::string_view peer_flag, bool peer_given,
                 std::string_view bench_flag);

/// The requests of the run as the count flags leave them: --num-prompts, or shared-prefix's
/// groups x questions when it is not given.
std::int64_t requests_of(const PeerReading& r);

/// --dataset-name and the datasets' own flags (--random-*, --gsp-*, --prefix-repetition-*,
/// --custom-output-len), with the dialect's defaults (peer_datasets.cpp).
void read_peer_dataset(PeerReading& r);

}  // namespace bench::cli
