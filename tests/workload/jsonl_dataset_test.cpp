#include "bench/workload/jsonl_dataset.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bench/images/image_file.hpp"
#include "bench/tokenizer/tokenizer.hpp"
#include "bench/workload/dataset_error.hpp"
#include "data_dirs.hpp"
#include "image_dataset.hpp"
#include "letter_tokenizer.hpp"
#include "temp_file.hpp"

namespace {

using bench::testing::TempFile;
using bench::workload::DatasetError;
using bench::workload::DatasetKind;
using bench::workload::DatasetOptions;
using bench::workload::JsonlFile;
using bench::workload::parse_jsonl_request;
using bench::workload::Prompt;
using nlohmann::json;

using bench::testing::kDatasetsDir;

DatasetOptions jsonl_in_file_order(const std::string& path, std::int64_t output_len = 100) {
  DatasetOptions options;
  options.kind = DatasetKind::jsonl;
  options.path = path;
  options.output_len = output_len;
  return options;
}

struct JsonlDataset {
  std::vector<Prompt> prompts;
  std::size_t requests = 0;
  std::size_t lines = 0;
};

// Indexes the file, then reads every request line back from its byte range.
JsonlDataset load_jsonl(const DatasetOptions& options,
                        const bench::tokenizer::Tokenizer* tokenizer = nullptr) {
  const JsonlFile file(options, tokenizer);
  JsonlDataset dataset{{}, file.size(), file.lines()};
  for (std::size_t i = 0; i < file.size(); ++i) dataset.prompts.push_back(file.item(i));
  return dataset;
}

// The DatasetError of parsing `line` as line 7 of "requests.jsonl", or a failure.
DatasetError line_error(const std::string& line) {
  try {
    parse_jsonl_request(line, "requests.jsonl", 7, 100);
  } catch (const DatasetError& error) {
    return error;
  }
  ADD_FAILURE() << "accepted: " << line;
  return DatasetError("", 0, "");
}

void expect_line_error(const std::string& line, const std::string& part) {
  const DatasetError error = line_error(line);
  const std::string message = error.what();
  EXPECT_EQ(message.rfind("requests.jsonl:7: ", 0), 0u) << message;
  EXPECT_NE(message.find(part), std::string::npos) << message;
  EXPECT_EQ(error.line(), 7u);
}

// The file holds error_line's mistake; the error names the file and that line.
void expect_file_error(const std::string& name, std::size_t error_line, const std::string& part) {
  try {
    load_jsonl(jsonl_in_file_order(kDatasetsDir + name));
    ADD_FAILURE() << name << " was accepted";
  } catch (const DatasetError& error) {
    const std::string message = error.what();
    EXPECT_EQ(error.line(), error_line) << message;
    EXPECT_EQ(message.rfind(kDatasetsDir + name + ":" + std::to_string(error_line) + ": ", 0), 0u)
        << message;
    EXPECT_NE(message.find(part), std::string::npos) << message;
  }
}

TEST(Jsonl, SampleFileGivesOneRequestPerNonBlankLine) {
  const JsonlDataset dataset = load_jsonl(jsonl_in_file_order(kDatasetsDir + "requests.jsonl"));
  EXPECT_EQ(dataset.lines, 9u);
  EXPECT_EQ(dataset.requests, 7u);
  ASSERT_EQ(dataset.prompts.size(), 7u);
  const std::vector<Prompt>& p = dataset.prompts;
  EXPECT_EQ(p[0].text, "Explain how a hash map handles collisions.");
  EXPECT_EQ(p[0].input_len, 7);
  EXPECT_EQ(p[0].output_len, 100);  // no max_tokens: --output-len
  EXPECT_FALSE(p[0].dataset_max_tokens.has_value());
  EXPECT_TRUE(p[0].messages.is_null());
  EXPECT_EQ(p[1].output_len, 64);
  EXPECT_EQ(p[1].dataset_max_tokens, 64);
  EXPECT_EQ(p[4].text, "Summarize the causes of the French Revolution in five bullet points.");
  EXPECT_EQ(p[4].output_len, 200);
  EXPECT_EQ(p[6].output_len, 100);  // "max_tokens": null is no max_tokens
}

TEST(Jsonl, MessagesAreKeptWholeAndTheirTextJoinedForCompletions) {
  const std::vector<Prompt> p =
      load_jsonl(jsonl_in_file_order(kDatasetsDir + "requests.jsonl")).prompts;
  ASSERT_EQ(p.size(), 7u);
  EXPECT_EQ(p[2].messages,
            json::parse(R"([{"role": "system", "content": "You answer in one short paragraph."},
                            {"role": "user", "content": "Why is the sky blue?"}])"));
  EXPECT_EQ(p[2].text, "You answer in one short paragraph.\n\nWhy is the sky blue?");
  EXPECT_EQ(p[2].input_len, 11);
  EXPECT_EQ(p[3].messages.size(), 3u);
  EXPECT_EQ(p[3].output_len, 48);
  EXPECT_EQ(p[3].input_len, 7 + 8 + 4);
  // Content parts: their "text" strings count and are joined.
  EXPECT_EQ(p[5].text,
            "Describe this chart in one sentence:\n\n"
            "sales rose 12% in March and fell 3% in April.");
  EXPECT_EQ(p[5].input_len, 16);
}

TEST(Jsonl, WithATokenizerEachRequestsLengthIsItsContentsTokens) {
  const TempFile file("tokens.jsonl",
                      "{\"prompt\": \"abcd efg\"}\n"
                      "{\"messages\": [{\"role\": \"system\", \"content\": \"ab\"}, "
                      "{\"role\": \"user\", \"content\": [{\"type\": \"text\", "
                      "\"text\": \"cde\"}]}]}\n");
  const workload_test::LetterTokenizer tokenizer;
  const JsonlDataset dataset = load_jsonl(jsonl_in_file_order(file.path()), &tokenizer);
  ASSERT_EQ(dataset.prompts.size(), 2u);
  EXPECT_EQ(dataset.prompts[0].input_len, 7);  // 2 words
  EXPECT_EQ(dataset.prompts[0].client_tokens, 7);
  EXPECT_EQ(dataset.prompts[1].input_len, 5);  // each message's content, no joining text
  EXPECT_EQ(dataset.prompts[1].client_tokens, 5);

  const JsonlDataset in_words = load_jsonl(jsonl_in_file_order(file.path()));
  EXPECT_EQ(in_words.prompts[0].input_len, 2);
  EXPECT_EQ(in_words.prompts[0].client_tokens, -1);
}

TEST(Jsonl, CrlfLineEndsAreNotPartOfTheText) {
  const std::vector<Prompt> p =
      load_jsonl(jsonl_in_file_order(kDatasetsDir + "requests_crlf.jsonl")).prompts;
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].text, "A line that ends with CRLF, as Windows editors write it.");
  EXPECT_EQ(p[1].output_len, 16);
}

TEST(Jsonl, ByteOrderMarkOnTheFirstLineIsSkipped) {
  const TempFile file("bom.jsonl", "\xEF\xBB\xBF{\"prompt\": \"written by a Windows editor\"}\n");
  const std::vector<Prompt> p = load_jsonl(jsonl_in_file_order(file.path())).prompts;
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].text, "written by a Windows editor");
}

TEST(Jsonl, LastLineWithoutNewlineIsRead) {
  const TempFile file("no-newline.jsonl", "{\"prompt\": \"a b\"}\n{\"prompt\": \"c d e\"}");
  EXPECT_EQ(load_jsonl(jsonl_in_file_order(file.path())).prompts.size(), 2u);
}

TEST(Jsonl, BadJsonNamesFileLineAndColumn) {
  expect_file_error("bad_json.jsonl", 3, "not valid JSON at column");
}

TEST(Jsonl, MissingPromptNamesFileAndLine) {
  expect_file_error("missing_prompt.jsonl", 2, "needs \"prompt\" (a string) or \"messages\"");
}

TEST(Jsonl, BadMaxTokensNamesFileAndLineCountingBlankLines) {
  expect_file_error("bad_max_tokens.jsonl", 4,
                    "\"max_tokens\" must be a positive integer, got \"64\"");
}

TEST(Jsonl, MessageWithoutRoleNamesFileLineAndMessage) {
  expect_file_error("bad_message.jsonl", 1, "messages[1] needs a \"role\" string");
}

TEST(Jsonl, FileOfBlankLinesIsAnErrorNamingIt) {
  try {
    load_jsonl(jsonl_in_file_order(kDatasetsDir + "blank.jsonl"));
    FAIL() << "no exception";
  } catch (const DatasetError& error) {
    EXPECT_EQ(error.line(), 0u);
    EXPECT_NE(std::string(error.what()).find("blank.jsonl: no request in the file"),
              std::string::npos)
        << error.what();
  }
}

TEST(Jsonl, MissingFileIsAnErrorNamingIt) {
  try {
    load_jsonl(jsonl_in_file_order(kDatasetsDir + "absent.jsonl"));
    FAIL() << "no exception";
  } catch (const DatasetError& error) {
    EXPECT_NE(std::string(error.what()).find("absent.jsonl: cannot read the jsonl file"),
              std::string::npos)
        << error.what();
  }
}

TEST(Jsonl, RejectsAnOutputLenBelowOneNamingTheFlag) {
  try {
    load_jsonl(jsonl_in_file_order(kDatasetsDir + "requests.jsonl", 0));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("--output-len"), std::string::npos);
  }
}

TEST(Jsonl, EachLineRuleHasItsOwnMessage) {
  expect_line_error(R"(["a list"])", "expected a JSON object, got array");
  expect_line_error(R"("a string")", "expected a JSON object, got string");
  expect_line_error(R"({"prompt": "x y", "messages": []})", "has both \"prompt\" and \"messages\"");
  expect_line_error(R"({"prompt": 42})", "\"prompt\" must be a string, got number");
  expect_line_error(R"({"prompt": "   "})", "\"prompt\" is empty");
  expect_line_error(R"({"messages": "hello"})", "\"messages\" must be a list of messages");
  expect_line_error(R"({"messages": []})", "\"messages\" is an empty list");
  expect_line_error(R"({"messages": ["hi"]})", "messages[0] must be an object, got string");
  expect_line_error(R"({"messages": [{"role": "user"}]})", "messages[0] needs a \"content\"");
  expect_line_error(R"({"messages": [{"role": 1, "content": "x"}]})",
                    "messages[0] needs a \"role\" string");
  expect_line_error(R"({"messages": [{"role": "user", "content": 5}]})",
                    "messages[0].content must be a string, a list of content parts or null");
  expect_line_error(R"({"prompt": "x", "max_tokens": 0})", "\"max_tokens\" must be a positive");
  expect_line_error(R"({"prompt": "x", "max_tokens": -3})", "\"max_tokens\" must be a positive");
  expect_line_error(R"({"prompt": "x", "max_tokens": 12.5})", "got 12.5");
  expect_line_error(R"({"prompt": "x"} {"prompt": "y"})", "not valid JSON at column");
  expect_line_error(R"({"prompt": "x",})", "not valid JSON at column 16");
}

TEST(Jsonl, AcceptedLineKeepsUnknownKeysOutOfTheRequest) {
  const Prompt prompt =
      parse_jsonl_request(R"({"id": 3, "prompt": "two words", "extra": {"a": 1}})", "f", 1, 9);
  EXPECT_EQ(prompt.text, "two words");
  EXPECT_EQ(prompt.input_len, 2);
  EXPECT_EQ(prompt.output_len, 9);
}

using bench::testing::ImageDataset;

// Its data.jsonl of `lines`, to read in file order.
DatasetOptions dataset_of(const ImageDataset& dir, const std::string& lines) {
  return jsonl_in_file_order(dir.with_lines(lines));
}

// The DatasetError of opening `options`, or a failure.
std::string open_error(const DatasetOptions& options) {
  try {
    const JsonlFile file(options);
    ADD_FAILURE() << options.path << " was accepted";
  } catch (const DatasetError& error) {
    return error.what();
  }
  return "";
}

TEST(Jsonl, ImagesAreFilesBesideTheDatasetCheckedAndCountedWhenItIsOpened) {
  const ImageDataset dir;
  const DatasetOptions options = dataset_of(
      dir,
      "{\"prompt\": \"what is this\", \"images\": [\"pics/small.png\", \"large.jpg\"]}\n"
      "{\"prompt\": \"no picture here\"}\n"
      "{\"messages\": [{\"role\": \"user\", \"content\": \"and this\"}], \"images\": [\"" +
          dir.file("large.jpg") + "\"]}\n");
  const JsonlFile file(options);
  ASSERT_EQ(file.size(), 3u);
  const Prompt first = file.item(0);
  EXPECT_EQ(first.image_files,
            (std::vector<std::string>{dir.file("pics/small.png"), dir.file("large.jpg")}));
  EXPECT_EQ(first.input_len, 3);  // the text's words: images are not words
  EXPECT_TRUE(file.item(1).image_files.empty());
  // An absolute path stays as it is.
  EXPECT_EQ(file.item(2).image_files, std::vector<std::string>{dir.file("large.jpg")});
  const bench::workload::DatasetImages& images = file.images();
  EXPECT_EQ(images.files, 3u);
  EXPECT_EQ(images.bytes, dir.size("pics/small.png") + 2 * dir.size("large.jpg"));
  EXPECT_EQ(images.largest_request_url_bytes,
            bench::images::data_url_size(dir.size("pics/small.png")) +
                bench::images::data_url_size(dir.size("large.jpg")));
}

TEST(Jsonl, AnImageFileThatCannotBeSentNamesTheDatasetItsLineAndTheFile) {
  const ImageDataset dir;
  dir.write("fake.png", "GIF89a, not a PNG");
  const std::string first = "{\"prompt\": \"fine\", \"images\": [\"large.jpg\"]}\n";
  EXPECT_EQ(
      open_error(dataset_of(dir, first + "{\"prompt\": \"x\", \"images\": [\"gone.png\"]}\n")),
      dir.file("data.jsonl") + ":2: images[0]: " + dir.file("gone.png") +
          " cannot be read: No such file or directory");
  // Judged by its bytes: a GIF named .png is refused, whatever its name says.
  EXPECT_EQ(open_error(dataset_of(dir, first + "\n{\"prompt\": \"x\", \"images\": "
                                               "[\"large.jpg\", \"fake.png\"]}\n")),
            dir.file("data.jsonl") + ":3: images[1]: " + dir.file("fake.png") +
                " is neither a JPEG nor a PNG (it starts 47 49 46 38 39 61 2C 20)");
}

TEST(Jsonl, ImagesAreRefusedWhereTheEndpointSendsNone) {
  const ImageDataset dir;
  DatasetOptions options =
      dataset_of(dir, "{\"prompt\": \"fine\"}\n{\"prompt\": \"x\", \"images\": [\"large.jpg\"]}\n");
  options.images_refused = "only --endpoint chat sends them, not completions";
  EXPECT_EQ(open_error(options), dir.file("data.jsonl") +
                                     ":2: \"images\": only --endpoint chat sends them, not "
                                     "completions");
  // Rows without images are still fine there.
  options = dataset_of(dir, "{\"prompt\": \"fine\", \"images\": []}\n");
  options.images_refused = "only --endpoint chat sends them, not completions";
  EXPECT_EQ(JsonlFile(options).size(), 1u);
}

TEST(Jsonl, EachImagesRuleHasItsOwnMessage) {
  expect_line_error(R"({"prompt": "x", "images": "a.png"})",
                    "\"images\" must be a list of image file paths, got string");
  expect_line_error(R"({"prompt": "x", "images": ["a.png", 3]})",
                    "images[1] must be a file path string, got number");
  expect_line_error(R"({"prompt": "x", "images": [""]})", "images[0] is an empty path");
  // Parsing a line resolves the paths against the dataset's directory and opens nothing.
  const Prompt prompt = parse_jsonl_request(R"({"prompt": "x", "images": ["a.png", "/abs/b.jpg"]})",
                                            "/data/set/requests.jsonl", 1, 9);
  EXPECT_EQ(prompt.image_files, (std::vector<std::string>{"/data/set/a.png", "/abs/b.jpg"}));
}

}  // namespace
