#pragma once
// A command line written for vLLM's or SGLang's benchmark client, read as that client reads it.
// Its dialect is told by the flags only one of them has (vLLM's --save-result, an --endpoint
// path; SGLang's --gsp-*, --backend sglang-oai), by --dialect, or is vLLM's when a peer flag is
// used and none tells. In a peer's dialect its flags take the peer's meaning and the command line
// the peer's defaults (its server address, endpoint, dataset, lengths, ignore_eos, no
// concurrency cap), except a default that would falsify a figure: then bench's rule holds, and
// the start-up notes and the results say which (RunOptions::peer_defaults_not_taken).
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "bench/cli/options.hpp"
#include "bench/cli/run_flags.hpp"

namespace bench::cli {

/// A command line's dialect and what told it ("--save-result", "--dialect sglang", ...).
struct DialectReading {
  Dialect dialect = Dialect::bench;
  std::string why;
};

/// The dialect of a parsed command line; nullopt = bench's own (no peer flag given). Throws
/// UsageError when its flags are both vLLM's and SGLang's and --dialect does not say which.
std::optional<DialectReading> dialect_of(const CLI::App& app, const RawPeerFlags& peer);

/// Reads the peer flags into `run` and `raw` (the load's and dataset's text, read after it) with
/// the dialect's meanings and defaults, and the notes saying how. Does nothing for bench's own
/// command lines. Throws UsageError for what bench cannot do as the peer would (a dataset it
/// does not have, non-streamed requests), or a peer flag and bench's own naming one setting.
void read_peer_flags(const CLI::App& app, RunOptions& run, RawRunFlags& raw);

}  // namespace bench::cli
