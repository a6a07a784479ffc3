// Images in chat end to end (issue 31): bench sends --images-per-request random images as
// base64 data URLs in image_url parts, a fresh image every request, at the size asked; the
// simulator counts them by its patch rule, so two sizes give input tokens that differ by
// exactly the rule's count; the results split the input into text and images (an estimate by
// difference); the image settings are part of the workload; completions refuse the flags. An
// image dataset (jsonl rows naming image files) sends each file's own bytes, its sizes show in
// the server's counts the same way, and a row that cannot be sent stops the run before it starts.
#include <png.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/cli/exit_codes.hpp"
#include "bench/images/image_header.hpp"
#include "bench/sim/sim_server.hpp"
#include "hostile_server.hpp"
#include "image_dataset.hpp"
#include "jsonl.hpp"
#include "no_answer_check.hpp"
#include "run_process.hpp"
#include "usage_errors.hpp"

namespace {

using bench::testing::chat_chunk;
using bench::testing::Exchange;
using bench::testing::HostileServer;
using bench::testing::http_head;
using bench::testing::ProcessResult;
using bench::testing::run_process;
using bench::testing::sse_event;
using bench::testing::TempDir;
using bench::testing::without_answer_check;
using nlohmann::json;

std::vector<std::string> image_args(const std::string& base_url, const std::string& size) {
  return {"--base-url",
          base_url,
          "--endpoint",
          "chat",
          "--concurrency",
          "2",
          "--num-prompts",
          "6",
          "--input-len",
          "16",
          "--output-len",
          "4",
          "--ignore-eos",
          "--seed",
          "5",
          "--images-per-request",
          "1",
          "--image-size",
          size,
          "--output-format",
          "json",
          "--quiet"};
}

json run_on_sim(const std::string& size, const std::vector<std::string>& extra = {}) {
  bench::sim::SimOptions options;
  options.ttft_ms = 5;
  options.tpot_ms = 1;
  options.time_scale = 10;
  bench::sim::SimServer server(options);
  std::vector<std::string> args = image_args(server.base_url(), size);
  args.insert(args.end(), extra.begin(), extra.end());
  const ProcessResult result = run_process(BENCH_BINARY, without_answer_check(args));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return result.exit_code == 0 ? json::parse(result.out) : json();
}

TEST(Images, TwoSizesDifferByExactlyThePatchRulesImageTokens) {
  // 14-pixel patches: 140 x 140 is 10 x 10 = 100 tokens, 280 x 140 is 20 x 10 = 200.
  const json small = run_on_sim("140x140");
  const json large = run_on_sim("280x140");
  ASSERT_TRUE(small.is_object() && large.is_object());
  EXPECT_EQ(small["completed"], 6);
  EXPECT_DOUBLE_EQ(
      large["mean_prompt_tokens"].get<double>() - small["mean_prompt_tokens"].get<double>(), 100.0);
  // The same text in both (one seed), 16 words of it: the server's count is the text's and the
  // image's.
  EXPECT_DOUBLE_EQ(small["mean_prompt_tokens"].get<double>(), 16.0 + 100.0);
  // The simulator's /tokenize counts the text (bench's default): the images' share is the rest.
  EXPECT_EQ(small["image_input_split"]["mean_input_tokens"], 116.0);
  EXPECT_EQ(small["image_input_split"]["mean_text_tokens"], 16.0);
  EXPECT_EQ(small["image_input_split"]["mean_image_tokens_estimate"], 100.0);
  // Without a tokenizer the text's own count is unknown, and so is the image share.
  const json words = run_on_sim("140x140", {"--tokenizer", "words"});
  ASSERT_TRUE(words.is_object());
  EXPECT_EQ(words["image_input_split"]["mean_input_tokens"], 116.0);
  EXPECT_TRUE(words["image_input_split"]["mean_text_tokens"].is_null());
  EXPECT_TRUE(words["image_input_split"]["mean_image_tokens_estimate"].is_null());
  // The requested length cannot be held against a count that holds the images.
  EXPECT_TRUE(small["input_len_mismatch"].is_null());
  EXPECT_EQ(small["config"]["images_per_request"], 1);
  EXPECT_EQ(small["config"]["image_size"], "140x140");
  EXPECT_EQ(small["config"]["image_format"], "jpeg");
}

// The Responses API carries the same images as input_image parts: the server counts what it
// counts for chat.
TEST(Images, TheResponsesApiSendsTheImagesChatSends) {
  bench::sim::SimOptions options;
  options.ttft_ms = 5;
  options.tpot_ms = 1;
  options.time_scale = 10;
  bench::sim::SimServer server(options);
  std::vector<std::string> args = image_args(server.base_url(), "140x140");
  *(std::find(args.begin(), args.end(), "--endpoint") + 1) = "responses";
  const ProcessResult result = run_process(BENCH_BINARY, without_answer_check(args));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json responses = json::parse(result.out);
  const json chat = run_on_sim("140x140");
  EXPECT_EQ(responses["endpoint"], "responses");
  EXPECT_EQ(responses["completed"], 6);
  // 16 words of text and a 10 x 10 patch image, as chat's.
  EXPECT_DOUBLE_EQ(responses["mean_prompt_tokens"].get<double>(), 16.0 + 100.0);
  EXPECT_EQ(responses["mean_prompt_tokens"], chat["mean_prompt_tokens"]);
  EXPECT_EQ(responses["image_input_split"]["mean_input_tokens"], 116.0);
}

// Multi-turn sessions: each user turn sends fresh images, and the history keeps the earlier
// ones, as a chat client's does: turn k's prompt holds k + 1 images (100 tokens each by the
// patch rule) beside the same text a run without images sends, and the prefix cache serves the
// earlier turns' images with their text.
TEST(Images, EachTurnOfASessionSendsItsImagesAndTheHistoryKeepsTheEarlierOnes) {
  const auto run = [](bool images) {
    TempDir dir;
    bench::sim::SimOptions options;
    options.ttft_ms = 5;
    options.tpot_ms = 1;
    options.time_scale = 10;
    options.prefix_cache = true;
    bench::sim::SimServer server(options);
    std::vector<std::string> args = image_args(server.base_url(), "140x140");
    if (!images)
      args.erase(std::find(args.begin(), args.end(), "--images-per-request"),
                 std::find(args.begin(), args.end(), "--output-format"));
    const std::string requests = dir.file("requests.jsonl");
    for (const std::string& arg : {std::string("--multi-turn"), std::string("--turns"),
                                   std::string("3"), std::string("--save-requests"), requests}) {
      args.push_back(arg);
    }
    const ProcessResult result = run_process(BENCH_BINARY, without_answer_check(args));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    std::map<std::pair<int, int>, json> turns;
    for (json& line : bench::testing::read_jsonl(requests)) {
      const std::pair<int, int> key{line.at("session").get<int>(), line.at("turn").get<int>()};
      turns[key] = std::move(line);
    }
    return turns;
  };
  const auto with_images = run(true);
  const auto text_only = run(false);
  ASSERT_EQ(with_images.size(), 18u);  // 6 sessions of 3 turns
  ASSERT_EQ(text_only.size(), 18u);
  for (const auto& [key, line] : with_images) {
    SCOPED_TRACE(line.dump().substr(0, 400));
    ASSERT_EQ(line["status"], "ok");
    const int turn = key.second;
    EXPECT_EQ(line["prompt_tokens"].get<int>(),
              text_only.at(key)["prompt_tokens"].get<int>() + 100 * (turn + 1));
    // The previous turn's prompt, its images included, is served from the cache.
    if (turn > 0) {
      EXPECT_GE(line["cached_prompt_tokens"].get<int>(),
                with_images.at({key.first, turn - 1})["prompt_tokens"].get<int>() / 16 * 16);
    }
  }
}

TEST(Images, WithATokenizerTheInputSplitsIntoTextAndAnImageEstimate) {
  const json run = run_on_sim("140x140", {"--tokenizer", "server"});
  ASSERT_TRUE(run.is_object());
  const json& split = run["image_input_split"];
  EXPECT_EQ(split["requests"], 6);
  EXPECT_EQ(split["mean_input_tokens"], 116.0);
  EXPECT_EQ(split["mean_text_tokens"], 16.0);
  EXPECT_EQ(split["mean_image_tokens_estimate"], 100.0);
}

TEST(Images, TheImageSizeIsPartOfTheWorkloadFingerprintAndCompareSaysSo) {
  const json small = run_on_sim("140x140");
  const json same = run_on_sim("140x140");
  const json large = run_on_sim("280x140");
  ASSERT_TRUE(small.is_object() && same.is_object() && large.is_object());
  EXPECT_EQ(small["workload"]["fingerprint"], same["workload"]["fingerprint"]);
  EXPECT_NE(small["workload"]["fingerprint"], large["workload"]["fingerprint"]);
  const TempDir dir;
  std::ofstream(dir.file("small.json")) << small.dump();
  std::ofstream(dir.file("large.json")) << large.dump();
  const ProcessResult compared =
      run_process(BENCH_BINARY, {"compare", dir.file("small.json"), dir.file("large.json")});
  const std::string said = compared.out + compared.err;
  EXPECT_NE(said.find("differ in image_size (140x140 vs 280x140)"), std::string::npos) << said;
  EXPECT_NE(said.find("measured different workloads"), std::string::npos) << said;
}

// The request bodies as a loopback server received them: each answered with a short stream.
struct Captured {
  std::mutex mutex;
  std::vector<std::string> bodies;
};

// A server that keeps each POST's body and answers it with one short chat stream.
auto capture_into(Captured& captured) {
  return [&captured](Exchange& exchange) {
    const std::string& request = exchange.request();
    const std::size_t body = request.find("\r\n\r\n");
    if (request.rfind("POST", 0) == 0 && body != std::string::npos) {
      const std::lock_guard<std::mutex> lock(captured.mutex);
      captured.bodies.push_back(request.substr(body + 4));
    }
    exchange.send(http_head(200, "text/event-stream") + sse_event(chat_chunk(" hi", "stop")) +
                  "data: [DONE]\n\n");
  };
}

// The pixels of a PNG as libpng decodes them; its width and height.
std::pair<std::uint32_t, std::uint32_t> decode_png(const std::string& bytes) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()) == 0) return {0, 0};
  image.format = PNG_FORMAT_RGB;
  std::vector<unsigned char> pixels(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr) == 0) return {0, 0};
  return {image.width, image.height};
}

TEST(Images, EachRequestCarriesFreshImagesThatDecodeAtTheSizeAsked) {
  Captured captured;
  const HostileServer server(capture_into(captured));
  std::vector<std::string> args = image_args(server.base_url(), "64x48");
  *(std::find(args.begin(), args.end(), "--images-per-request") + 1) = "2";
  // Words: the server captures every body, the default's /tokenize requests too.
  args.insert(args.end(), {"--model", "m", "--image-format", "png", "--per-chunk-usage", "off",
                           "--tokenizer", "words"});
  const ProcessResult result = run_process(BENCH_BINARY, without_answer_check(args));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::lock_guard<std::mutex> lock(captured.mutex);
  ASSERT_EQ(captured.bodies.size(), 6u);
  std::set<std::string> urls;
  for (const std::string& text : captured.bodies) {
    const json body = json::parse(text);
    const json& content = body["messages"].back()["content"];
    ASSERT_TRUE(content.is_array()) << content.dump().substr(0, 200);
    ASSERT_EQ(content.size(), 3u);
    EXPECT_EQ(content[0]["type"], "text");
    for (std::size_t i = 1; i < 3; ++i) {
      EXPECT_EQ(content[i]["type"], "image_url");
      const std::string url = content[i]["image_url"]["url"].get<std::string>();
      EXPECT_EQ(url.rfind("data:image/png;base64,", 0), 0u);
      const std::optional<std::string> bytes = bench::images::data_url_bytes(url);
      ASSERT_TRUE(bytes);
      EXPECT_EQ(decode_png(*bytes), (std::pair<std::uint32_t, std::uint32_t>{64, 48}));
      urls.insert(url);
    }
  }
  EXPECT_EQ(urls.size(), 12u);  // no image twice
}

TEST(Images, ImageFlagsAreUsageErrorsWithCompletionsAndNothingIsSent) {
  bench::sim::SimServer server({});
  const bench::testing::UsageErrorCases cases = {
      {{"--endpoint", "completions", "--images-per-request", "1"},
       "--images-per-request: applies to --endpoint chat, responses or messages, not completions"},
      {{"--image-size", "64x64"}, "--image-size: needs --images-per-request"},
      {{"--images-per-request", "1", "--image-size", "64"}, "--image-size: '64' is not WxH"},
      {{"--images-per-request", "1", "--image-format", "gif"}, "--image-format: 'gif'"},
  };
  bench::testing::expect_usage_errors_with_nothing_sent(server, cases);
}

using bench::testing::ImageDataset;

const std::string kSixteenWords =
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen";

std::vector<std::string> dataset_args(const std::string& base_url, const std::string& path) {
  return {
      "--base-url",      base_url, "--dataset",     "jsonl", "--dataset-path", path, "--no-shuffle",
      "--concurrency",   "1",      "--num-prompts", "2",     "--output-len",   "4",  "--ignore-eos",
      "--output-format", "json",   "--quiet"};
}

TEST(ImageDatasets, TwoImagesOfKnownSizesGiveInputTokensThatDifferByThePatchRule) {
  const ImageDataset dataset;
  const std::string path = dataset.with_lines(
      "{\"prompt\": \"" + kSixteenWords + "\", \"images\": [\"pics/small.png\"]}\n" +
      "{\"prompt\": \"" + kSixteenWords + "\", \"images\": [\"large.jpg\"]}\n");
  const TempDir logs;
  json run;
  {
    bench::sim::SimOptions options;
    options.ttft_ms = 1;
    options.tpot_ms = 0;
    options.trace_path = logs.file("truth.jsonl");
    bench::sim::SimServer server(options);
    std::vector<std::string> args = dataset_args(server.base_url(), path);
    args.insert(args.end(), {"--tokenizer", "server"});
    const ProcessResult result = run_process(BENCH_BINARY, without_answer_check(args));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    run = json::parse(result.out);
  }
  // The server's count of each request: the same 16 words, then 100 or 200 image tokens. The
  // run's two requests are the log's last lines (the chat template's probe comes before them).
  std::vector<std::int64_t> served;
  for (const json& line : bench::testing::read_jsonl(logs.file("truth.jsonl"))) {
    served.push_back(line["prompt_tokens"].get<std::int64_t>());
  }
  ASSERT_GE(served.size(), 2u);
  served.erase(served.begin(), served.end() - 2);
  EXPECT_EQ(served, (std::vector<std::int64_t>{16 + 100, 16 + 200}));
  // bench's figures: input from usage, the text's own count beside it, images by difference.
  EXPECT_EQ(run["completed"], 2);
  EXPECT_EQ(run["config"]["dataset_images"], 2);
  EXPECT_FALSE(run["config"].contains("images_per_request"));
  const json& split = run["image_input_split"];
  EXPECT_EQ(split["mean_input_tokens"], 166.0);
  EXPECT_EQ(split["mean_text_tokens"], 16.0);
  EXPECT_EQ(split["mean_image_tokens_estimate"], 150.0);
  EXPECT_TRUE(run["input_len_mismatch"].is_null());
}

TEST(ImageDatasets, EachImageIsSentAsTheFilesOwnBytesWithTheMediaTypeOfItsContent) {
  const ImageDataset dataset;
  // PNG bytes under a .jpg name: the media type follows the bytes.
  dataset.write("pics/photo.jpg", dataset.read("pics/small.png"));
  const std::string path = dataset.with_lines(
      "{\"prompt\": \"what is in these\", \"images\": [\"pics/photo.jpg\", \"large.jpg\"]}\n"
      "{\"messages\": [{\"role\": \"system\", \"content\": \"be brief\"}, "
      "{\"role\": \"user\", \"content\": \"and this\"}], \"images\": [\"large.jpg\"]}\n");
  Captured captured;
  const HostileServer server(capture_into(captured));
  std::vector<std::string> args = dataset_args(server.base_url(), path);
  args.insert(args.end(), {"--model", "m", "--per-chunk-usage", "off"});
  const ProcessResult result = run_process(BENCH_BINARY, without_answer_check(args));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::lock_guard<std::mutex> lock(captured.mutex);
  ASSERT_EQ(captured.bodies.size(), 2u);
  const json first = json::parse(captured.bodies[0])["messages"];
  ASSERT_EQ(first.size(), 1u);
  const json& parts = first[0]["content"];
  ASSERT_EQ(parts.size(), 3u) << parts.dump().substr(0, 300);
  EXPECT_EQ(parts[0], (json{{"type", "text"}, {"text", "what is in these"}}));
  const auto url_of = [](const json& part) {
    EXPECT_EQ(part["type"], "image_url");
    return part["image_url"]["url"].get<std::string>();
  };
  EXPECT_EQ(url_of(parts[1]).rfind("data:image/png;base64,", 0), 0u);
  EXPECT_EQ(bench::images::data_url_bytes(url_of(parts[1])), dataset.read("pics/small.png"));
  EXPECT_EQ(url_of(parts[2]).rfind("data:image/jpeg;base64,", 0), 0u);
  EXPECT_EQ(bench::images::data_url_bytes(url_of(parts[2])), dataset.read("large.jpg"));
  // A messages row: its images follow the last user message's text; the system message stays.
  const json second = json::parse(captured.bodies[1])["messages"];
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[0]["content"], "be brief");
  ASSERT_EQ(second[1]["content"].size(), 2u);
  EXPECT_EQ(bench::images::data_url_bytes(url_of(second[1]["content"][1])),
            dataset.read("large.jpg"));
}

TEST(ImageDatasets, ARowWhoseImagesCannotBeSentIsAUsageErrorAndNothingIsSent) {
  const ImageDataset dataset;
  dataset.write("notes.png", "just text, named like an image");
  const auto rows = [&dataset](const std::string& name, const std::string& images) {
    dataset.write(name,
                  "{\"prompt\": \"fine\"}\n{\"prompt\": \"x\", \"images\": [" + images + "]}\n");
    return dataset.file(name);
  };
  const std::string missing = rows("missing.jsonl", "\"pics/small.png\", \"gone.png\"");
  const std::string not_an_image = rows("text.jsonl", "\"notes.png\"");
  const std::string good = rows("good.jsonl", "\"large.jpg\"");
  bench::sim::SimServer server({});
  const bench::testing::UsageErrorCases cases = {
      {{"--dataset", "jsonl", "--dataset-path", missing},
       missing + ":2: images[1]: " + dataset.file("gone.png") +
           " cannot be read: No such file or directory"},
      {{"--dataset", "jsonl", "--dataset-path", not_an_image},
       not_an_image + ":2: images[0]: " + dataset.file("notes.png") +
           " is neither a JPEG nor a PNG (it starts 6A 75 73 74 20 74 65 78)"},
      {{"--endpoint", "completions", "--dataset", "jsonl", "--dataset-path", good},
       good + ":2: \"images\": only --endpoint chat, responses or messages sends them, not "
              "completions"},
  };
  bench::testing::expect_usage_errors_with_nothing_sent(server, cases);
}

// A row's image file deleted after the start-up check fails only the requests that send it:
// each is counted under not_built with a one-line reason, never sent, and the run goes on to
// write its results (exit 1; --max-error-rate sees the failures). Deterministic: the server
// deletes the file when bench asks for the model, which every body needs, so the check has
// passed and no body has been made yet.
TEST(ImageDatasets, AnImageFileGoneAfterTheCheckFailsItsRequestsAndTheRunGoesOn) {
  const ImageDataset dataset;
  const std::string gone = dataset.file("gone.png");
  const std::string path = dataset.with_lines(
      "{\"prompt\": \"one\", \"images\": [\"pics/small.png\"]}\n"
      "{\"prompt\": \"two\", \"images\": [\"gone.png\"]}\n"
      "{\"prompt\": \"three\", \"images\": [\"large.jpg\"]}\n"
      "{\"prompt\": \"four\", \"images\": [\"large.jpg\", \"gone.png\"]}\n");
  Captured captured;
  const auto answer = capture_into(captured);
  const HostileServer server([&answer, &gone](Exchange& exchange) {
    if (exchange.request().rfind("GET /v1/models", 0) != 0) return answer(exchange);
    std::filesystem::remove(gone);
    exchange.send(bench::testing::http_response(200, "application/json",
                                                R"({"object": "list", "data": [{"id": "m"}]})"));
  });
  const std::string message = "could not build the request: image file " + gone +
                              " cannot be read: No such file or directory (it changed after it "
                              "was checked)";
  for (const auto& [max_error_rate, exit_code] :
       std::vector<std::pair<std::string, int>>{{"", bench::cli::kExitRequestsFailed},
                                                {"0.5", bench::cli::kExitOk},
                                                {"0.25", bench::cli::kExitGateFailed}}) {
    SCOPED_TRACE("--max-error-rate " + max_error_rate);
    dataset.write("gone.png", dataset.read("pics/small.png"));
    const TempDir out;
    std::vector<std::string> args = dataset_args(server.base_url(), path);
    *(std::find(args.begin(), args.end(), "--num-prompts") + 1) = "4";
    args.insert(args.end(), {"--per-chunk-usage", "off", "--output-file", out.file("run.json"),
                             "--save-requests", out.file("requests.jsonl")});
    if (!max_error_rate.empty()) args.insert(args.end(), {"--max-error-rate", max_error_rate});
    const ProcessResult result = run_process(BENCH_BINARY, without_answer_check(args));
    ASSERT_EQ(result.exit_code, exit_code) << result.err;
    EXPECT_EQ(result.err.find("error:"), std::string::npos) << result.err;
    std::ifstream file(out.file("run.json"));
    const json run = json::parse(file, nullptr, false);
    ASSERT_TRUE(run.is_object()) << "the results file was not written";
    EXPECT_EQ(run["sent"], 4);
    EXPECT_EQ(run["completed"], 2);
    EXPECT_EQ(run["failed"], 2);
    EXPECT_EQ(run["errors"], (json{{"not_built", {{"count", 2}, {"samples", {message}}}}}));
    std::vector<std::string> statuses;
    for (const json& line : bench::testing::read_jsonl(out.file("requests.jsonl"))) {
      statuses.push_back(line["status"].get<std::string>());
    }
    EXPECT_EQ(statuses, (std::vector<std::string>{"ok", "not_built", "ok", "not_built"}));
  }
  const std::lock_guard<std::mutex> lock(captured.mutex);
  EXPECT_EQ(captured.bodies.size(), 6u) << "only the two made, each run";
}

}  // namespace
