// The one-line words for results' figures (bench/report/figure_words.hpp): the image split with
// "unknown" and why, why the energy figures are unknown, and the prompt cache's note naming why
// sharing was meant.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "bench/metrics/run_summary.hpp"
#include "bench/report/figure_words.hpp"
#include "bench/results/image_split.hpp"
#include "bench/results/writer.hpp"
#include "energy_window.hpp"

namespace figure_words_test {

using bench::metrics::RunSummary;
using bench::report::energy_unknown_reason;
using bench::report::image_input_split_line;
using bench::report::prompt_cache_note;
using bench::results::RunContext;

TEST(FigureWords, TheImageSplitSaysEachPartAndItsSource) {
  bench::results::ImageInputSplit split;
  split.requests = 4;
  split.input = 1234.0;
  split.text = 200.0;
  split.images = 1034.0;
  EXPECT_EQ(image_input_split_line(split),
            "1234 tokens a request (usage), of which text 200 (tokenizer), images ~1034 by "
            "difference (estimate)");
  split.text.reset();
  split.images.reset();
  EXPECT_EQ(image_input_split_line(split),
            "1234 tokens a request (usage), of which text unknown (needs --tokenizer), images "
            "unknown");
}

TEST(FigureWords, EnergyIsUnknownForASaidReason) {
  EXPECT_EQ(energy_unknown_reason(bench::testing::context_with_energy(1866.0)), "");
  EXPECT_NE(energy_unknown_reason(RunContext{}).find("no GPU energy counter was scraped"),
            std::string::npos);
  EXPECT_NE(energy_unknown_reason(bench::testing::context_with_energy(std::nullopt))
                .find("no GPU energy"),
            std::string::npos);
  EXPECT_NE(
      energy_unknown_reason(bench::testing::context_with_energy(100.0, 5)).find("warm-up requests"),
      std::string::npos);
}

TEST(FigureWords, ThePromptCacheNoteSaysTheShareWasAsked) {
  RunSummary summary;
  summary.completed = 100;
  summary.input_split.requests = 100;
  summary.input_split.disclosing_requests = 100;
  summary.input_split.cached_tokens = 49'000;
  summary.input_split.computed_tokens = 51'000;
  RunContext context;
  context.prefix_share = 0.5;
  const std::string note = prompt_cache_note(summary, context);
  EXPECT_EQ(note,
            "server disclosed cached tokens on all requests: 49.0% cached; --prefix-share asked "
            "50.0% of each prompt shared: sharing is its purpose");
}

}  // namespace figure_words_test
