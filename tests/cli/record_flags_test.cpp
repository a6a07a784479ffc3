// `bench record`'s flags: a wire recording (--out), Weka-format traces (--weka-trace), or both;
// the traces' own flags only with them.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "bench/cli/exit_codes.hpp"
#include "bench/cli/options.hpp"
#include "parse_run_options.hpp"

namespace record_flags_test {

using bench::cli::ParseResult;
using bench::testing::parse_args;

TEST(RecordFlags, WekaTracesAreWrittenBesideOrInsteadOfTheRecording) {
  const std::vector<std::string> record = {"record", "--upstream", "http://127.0.0.1:8000",
                                           "--listen", "0"};
  const auto with = [&record](std::vector<std::string> extra) {
    std::vector<std::string> args = record;
    args.insert(args.end(), extra.begin(), extra.end());
    return parse_args(args);
  };
  const ParseResult traces =
      with({"--weka-trace", "t", "--tokenizer", "tokenizer.json", "--session-header",
            "X-Session-Id", "--session-header", "session_id"});
  ASSERT_FALSE(traces.exit_code) << traces.message;
  EXPECT_EQ(traces.record.weka_trace_dir, "t");
  EXPECT_TRUE(traces.record.out_dir.empty());
  EXPECT_EQ(traces.record.tokenizer_path, "tokenizer.json");
  EXPECT_EQ(traces.record.session_headers,
            (std::vector<std::string>{"X-Session-Id", "session_id"}));
  EXPECT_EQ(with({"--out", "w"}).record.session_headers, std::vector<std::string>{"X-Session-Id"});
  for (const auto& [args, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{}, "give --out DIR (a wire recording), --weka-trace DIR, or both"},
           {{"--out", "w", "--tokenizer", "t.json"}, "--tokenizer: only with --weka-trace"},
           {{"--out", "w", "--session-header", "X-S"}, "--session-header: only with --weka-trace"},
           {{"--weka-trace", "t", "--session-header", "a b"}, "is not an HTTP header name"}}) {
    const ParseResult result = with(args);
    EXPECT_EQ(result.exit_code, bench::cli::kExitUsage) << says;
    EXPECT_NE(result.message.find(says), std::string::npos) << result.message;
  }
}

}  // namespace record_flags_test
