// The Prometheus text exposition format (version 0.0.4) case by case: the real llama.cpp scrape,
// hand-written vLLM and SGLang ones, every odd spelling the format allows, and what it refuses.
#include "bench/server_metrics/exposition.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace {

using bench::server_metrics::Exposition;
using bench::server_metrics::Family;
using bench::server_metrics::Limits;
using bench::server_metrics::MetricType;
using bench::server_metrics::parse_exposition;
using bench::server_metrics::ParseResult;

std::string read_data(const std::string& name) {
  std::ifstream in(std::string(BENCH_TEST_DATA_DIR) + "/server_metrics/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Exposition parse_ok(std::string_view body) {
  ParseResult result = parse_exposition(body);
  EXPECT_TRUE(result.ok()) << result.error->describe();
  return std::move(result.exposition);
}

std::string error_of(std::string_view body, const Limits& limits = {}) {
  const ParseResult result = parse_exposition(body, limits);
  EXPECT_FALSE(result.ok()) << body;
  EXPECT_TRUE(result.exposition.families.empty());
  return result.ok() ? std::string() : result.error->describe();
}

double only_value(const Exposition& exposition, std::string_view family_name) {
  const Family* family = exposition.family(family_name);
  EXPECT_NE(family, nullptr) << family_name;
  if (family == nullptr) return NAN;
  EXPECT_EQ(family->samples.size(), 1u) << family_name;
  return family->samples.front().value;
}

TEST(Exposition, ReadsTheRealLlamaCppScrape) {
  const Exposition exposition = parse_ok(read_data("llamacpp-b4748.prom"));
  ASSERT_EQ(exposition.families.size(), 12u);
  EXPECT_EQ(exposition.sample_count(), 12u);
  const Family* prompt = exposition.family("llamacpp:prompt_tokens_total");
  ASSERT_NE(prompt, nullptr);
  EXPECT_EQ(prompt->type, MetricType::counter);
  EXPECT_EQ(prompt->help, "Number of prompt tokens processed.");
  EXPECT_EQ(only_value(exposition, "llamacpp:prompt_tokens_total"), 105509);
  EXPECT_EQ(only_value(exposition, "llamacpp:tokens_predicted_total"), 51722);
  EXPECT_DOUBLE_EQ(only_value(exposition, "llamacpp:kv_cache_usage_ratio"), 0.189453);
  EXPECT_EQ(exposition.family("llamacpp:kv_cache_usage_ratio")->type, MetricType::gauge);
  EXPECT_DOUBLE_EQ(only_value(exposition, "llamacpp:n_busy_slots_per_decode"), 7.06392);
}

TEST(Exposition, ReadsVllmCountersHistogramsAndCreatedGauges) {
  const Exposition exposition = parse_ok(read_data("vllm.prom"));
  const Family* ttft = exposition.family("vllm:time_to_first_token_seconds");
  ASSERT_NE(ttft, nullptr);
  EXPECT_EQ(ttft->type, MetricType::histogram);
  ASSERT_EQ(ttft->samples.size(), 6u);
  EXPECT_EQ(*ttft->samples[3].label("le"), "+Inf");
  EXPECT_EQ(ttft->samples[3].value, 50);
  EXPECT_EQ(ttft->samples[5].name, "vllm:time_to_first_token_seconds_sum");
  const Family* success = exposition.family("vllm:request_success_total");
  ASSERT_NE(success, nullptr);
  ASSERT_EQ(success->samples.size(), 2u);
  EXPECT_EQ(*success->samples[1].label("finished_reason"), "length");
  EXPECT_EQ(exposition.family("vllm:prefix_cache_queries_created")->type, MetricType::gauge);
  EXPECT_DOUBLE_EQ(exposition.family("vllm:prefix_cache_queries_created")->samples[0].value,
                   1.7649e9);
}

TEST(Exposition, ReadsSglangScrape) {
  const Exposition exposition = parse_ok(read_data("sglang.prom"));
  EXPECT_EQ(exposition.families.size(), 7u);
  EXPECT_DOUBLE_EQ(exposition.family("sglang:token_usage")->samples[0].value, 0.12);
  EXPECT_EQ(exposition.family("sglang:time_to_first_token_seconds")->samples.size(), 5u);
}

TEST(Exposition, CounterOwnsItsTotalAndCreatedSamples) {
  const Exposition exposition =
      parse_ok("# TYPE requests counter\nrequests_total 7\nrequests_created 1.5e9\n");
  ASSERT_EQ(exposition.families.size(), 1u);
  EXPECT_EQ(exposition.families[0].samples.size(), 2u);
  EXPECT_EQ(exposition.families[0].samples[0].name, "requests_total");
}

TEST(Exposition, SummaryOwnsQuantilesSumAndCount) {
  const Exposition exposition = parse_ok(
      "# TYPE rpc_seconds summary\n"
      "rpc_seconds{quantile=\"0.5\"} 0.25\nrpc_seconds{quantile=\"0.99\"} NaN\n"
      "rpc_seconds_sum 17.5\nrpc_seconds_count 70\n");
  ASSERT_EQ(exposition.families.size(), 1u);
  const Family& summary = exposition.families[0];
  ASSERT_EQ(summary.samples.size(), 4u);
  EXPECT_TRUE(std::isnan(summary.samples[1].value));
  EXPECT_EQ(summary.samples[3].value, 70);
}

TEST(Exposition, ReadsInfinitiesNanExponentsAndSigns) {
  const Exposition exposition =
      parse_ok("a +Inf\nb -Inf\nc NaN\nd 1e3\ne -0.5\nf +2\ng .5\nh 1.5E-3\ni inf\n");
  EXPECT_EQ(only_value(exposition, "a"), INFINITY);
  EXPECT_EQ(only_value(exposition, "b"), -INFINITY);
  EXPECT_TRUE(std::isnan(only_value(exposition, "c")));
  EXPECT_EQ(only_value(exposition, "d"), 1000);
  EXPECT_EQ(only_value(exposition, "e"), -0.5);
  EXPECT_EQ(only_value(exposition, "f"), 2);
  EXPECT_EQ(only_value(exposition, "g"), 0.5);
  EXPECT_DOUBLE_EQ(only_value(exposition, "h"), 0.0015);
  EXPECT_EQ(only_value(exposition, "i"), INFINITY);
}

TEST(Exposition, ReadsOptionalTimestamps) {
  const Exposition exposition = parse_ok("a 1 1700000000123\nb 2\nc 3 -5\n");
  EXPECT_EQ(exposition.family("a")->samples[0].timestamp_ms, 1700000000123);
  EXPECT_FALSE(exposition.family("b")->samples[0].timestamp_ms.has_value());
  EXPECT_EQ(exposition.family("c")->samples[0].timestamp_ms, -5);
}

TEST(Exposition, UnescapesLabelValuesAndHelpText) {
  const Exposition exposition = parse_ok(
      "# HELP m A \\\\ backslash\\nand a newline \"quoted\"\n"
      "m{path=\"C:\\\\dir\",say=\"\\\"hi\\\"\",lines=\"a\\nb\",empty=\"\",odd=\"{},= #\"} 1\n");
  const Family& family = exposition.families.at(0);
  EXPECT_EQ(family.help, "A \\ backslash\nand a newline \"quoted\"");
  const auto& sample = family.samples.at(0);
  EXPECT_EQ(*sample.label("path"), "C:\\dir");
  EXPECT_EQ(*sample.label("say"), "\"hi\"");
  EXPECT_EQ(*sample.label("lines"), "a\nb");
  EXPECT_EQ(*sample.label("empty"), "");
  EXPECT_EQ(*sample.label("odd"), "{},= #");
  EXPECT_EQ(sample.label("absent"), nullptr);
}

TEST(Exposition, AcceptsBlanksTrailingCommaEmptyLabelsAndCrlf) {
  const Exposition exposition =
      parse_ok("\n   \n# a plain comment\n#\n  a{ x = \"1\" , y=\"2\", } \t 4 \r\nb{} 5\r\n");
  EXPECT_EQ(exposition.families.size(), 2u);
  EXPECT_EQ(*exposition.family("a")->samples[0].label("y"), "2");
  EXPECT_EQ(only_value(exposition, "a"), 4);
  EXPECT_EQ(only_value(exposition, "b"), 5);
}

TEST(Exposition, AnEmptyBodyIsAnEmptyExposition) {
  EXPECT_TRUE(parse_ok("").families.empty());
  EXPECT_TRUE(parse_ok("# only a comment").families.empty());
}

TEST(Exposition, SamplesOfAnUndeclaredNameFormUntypedFamilies) {
  const Exposition exposition = parse_ok("x_bucket{le=\"1\"} 1\nx 2\n");
  ASSERT_EQ(exposition.families.size(), 2u);
  EXPECT_EQ(exposition.families[0].type, MetricType::untyped);
  EXPECT_EQ(exposition.families[0].name, "x_bucket");
}

TEST(Exposition, FindsAFamilyDeclaredEarlierWhenItsSamplesComeLater) {
  const Exposition exposition = parse_ok(
      "# TYPE h histogram\n# TYPE g gauge\ng 1\nh_bucket{le=\"+Inf\"} 2\nh_count 2\nh_sum 3\n");
  EXPECT_EQ(exposition.family("h")->samples.size(), 3u);
  EXPECT_EQ(exposition.family("g")->samples.size(), 1u);
}

TEST(Exposition, RefusesBadNamesLabelsAndValues) {
  EXPECT_EQ(error_of("1abc 1\n"), "line 1: a sample line must start with a valid metric name");
  EXPECT_EQ(error_of("ok 1\nm{1a=\"x\"} 1\n"),
            "line 2: expected a label name in the labels of \"m\"");
  EXPECT_EQ(error_of("m{a=\"x\" b=\"y\"} 1\n"), "line 1: expected ',' or '}' after label \"a\"");
  EXPECT_EQ(error_of("m{a\"x\"} 1\n"), "line 1: expected '=' after label name \"a\"");
  EXPECT_EQ(error_of("m{a=x} 1\n"), "line 1: expected '\"' to open the value of label \"a\"");
  EXPECT_EQ(error_of("m{a=\"x} 1\n"),
            "line 1: label value without its closing quote (label \"a\")");
  EXPECT_EQ(error_of("m{a=\"\\t\"} 1\n"),
            "line 1: invalid escape in a label value (only \\\\, \\\" and \\n are allowed) "
            "(label \"a\")");
  EXPECT_EQ(error_of("m{a=\"1\",a=\"2\"} 1\n"), "line 1: label \"a\" given twice in \"m\"");
  EXPECT_EQ(error_of("m\n"), "line 1: sample \"m\" has no valid value");
  EXPECT_EQ(error_of("m 0x10\n"), "line 1: sample \"m\" has no valid value");
  EXPECT_EQ(error_of("m 1,5\n"), "line 1: sample \"m\" has no valid value");
  EXPECT_EQ(error_of("m ++1\n"), "line 1: sample \"m\" has no valid value");
  EXPECT_EQ(error_of("m 1 12.5\n"),
            "line 1: sample \"m\" has text after its value that is not a timestamp in "
            "milliseconds");
  EXPECT_EQ(error_of("m 1 2 3\n"),
            "line 1: sample \"m\" has text after its value that is not a timestamp in "
            "milliseconds");
  EXPECT_EQ(error_of("m-x 1\n"), "line 1: unexpected character after metric name \"m\"");
}

TEST(Exposition, RefusesBadHelpAndTypeLines) {
  EXPECT_EQ(error_of("# TYPE m countr\n"),
            "line 1: TYPE line for \"m\" without one of counter, gauge, histogram, summary, "
            "untyped");
  EXPECT_EQ(error_of("# TYPE m gauge extra\n"),
            "line 1: TYPE line for \"m\" without one of counter, gauge, histogram, summary, "
            "untyped");
  EXPECT_EQ(error_of("# TYPE m gauge\n# TYPE m gauge\n"), "line 2: second TYPE line for \"m\"");
  EXPECT_EQ(error_of("# HELP m a\n# HELP m b\n"), "line 2: second HELP line for \"m\"");
  EXPECT_EQ(error_of("m 1\n# TYPE m gauge\n"), "line 2: TYPE line for \"m\" after its samples");
  EXPECT_EQ(error_of("# HELP m bad \\t escape\n"),
            "line 1: invalid escape in HELP text (only \\\\ and \\n are allowed)");
  EXPECT_EQ(error_of("# TYPE\n"), "line 1: TYPE line without a metric name");
  EXPECT_EQ(error_of("# HELP 9x text\n"), "line 1: HELP line without a valid metric name");
}

TEST(Exposition, RefusesSamplesThatBreakTheirFamilysShape) {
  EXPECT_EQ(error_of("# TYPE h histogram\nh_bucket 1\n"),
            "line 2: sample \"h_bucket\" of histogram \"h\" has no \"le\" label");
  EXPECT_EQ(error_of("# TYPE h histogram\nh_bucket{le=\"big\"} 1\n"),
            "line 2: sample \"h_bucket\" has a non-numeric \"le\" label");
  EXPECT_EQ(error_of("# TYPE h histogram\nh 1\n"),
            "line 2: sample \"h\" does not fit histogram \"h\"");
  EXPECT_EQ(error_of("# TYPE s summary\ns 1\n"),
            "line 2: sample \"s\" of summary \"s\" has no \"quantile\" label");
}

TEST(Exposition, RefusesWhatIsBeyondItsLimits) {
  Limits limits;
  limits.max_bytes = 16;
  EXPECT_EQ(error_of("metric_name 12345678\n", limits),
            "the body is 21 bytes, beyond the cap of 16");
  limits = Limits{};
  limits.max_line_bytes = 8;
  EXPECT_EQ(error_of("a 1\nlong_name 1\n", limits), "line 2: line longer than 8 bytes");
  limits = Limits{};
  limits.max_samples = 2;
  EXPECT_EQ(error_of("a 1\nb 2\nc 3\n", limits), "line 3: more than 2 samples");
  limits = Limits{};
  limits.max_labels_per_sample = 1;
  EXPECT_EQ(error_of("m{a=\"1\",b=\"2\"} 1\n", limits), "line 1: more than 1 labels on \"m\"");
}

TEST(Exposition, QuotesOnlyTheStartOfAVeryLongName) {
  const std::string name(500, 'n');
  const std::string error = error_of(name + "\n");
  EXPECT_LT(error.size(), 140u) << error;
  EXPECT_NE(error.find("...\""), std::string::npos) << error;
}

}  // namespace
