#pragma once
// The flags of a tool-calling and structured-output workload (chat only):
//   --tools FILE              a JSON array of OpenAI tool definitions, sent as "tools"
//   --tool-choice CHOICE      auto | required | none | the name of one of those tools
//   --response-format SPEC    an OpenAI response_format object (JSON, or a file holding it)
// Each changes what the server generates (a tool call, or guided decoding that slows TPOT), so
// they are part of the workload and its fingerprint (app/workload_fingerprint.hpp).
#include <string>

#include <CLI/CLI.hpp>

#include "bench/cli/options.hpp"

namespace bench::cli {

/// Raw values, read in finish_tool_flags.
struct RawToolFlags {
  std::string tools_path;
  std::string tool_choice;
  std::string response_format;
};

void add_tool_flags(CLI::App& app, RawToolFlags& raw);

/// After parsing: reads and checks the files and values into run.tools, run.tool_choice and
/// run.response_format, before anything is sent. Throws UsageError with one line naming the
/// flag.
void finish_tool_flags(RunOptions& run, const RawToolFlags& raw);

}  // namespace bench::cli
