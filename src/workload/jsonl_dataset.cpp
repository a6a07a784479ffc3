#include "bench/workload/jsonl_dataset.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/images/image_file.hpp"
#include "bench/util/words.hpp"
#include "bench/workload/dataset_error.hpp"
#include "dataset_file.hpp"

namespace bench::workload {
namespace {

using nlohmann::json;

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// A line as its request sees it: no BOM before the first, no CR before the newline.
std::string_view request_text(std::string_view line, std::size_t line_number) {
  if (line_number == 1 && line.substr(0, kUtf8Bom.size()) == kUtf8Bom) {
    line.remove_prefix(kUtf8Bom.size());
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos;
}

// The text of a content value for /v1/completions: a string, or its "text" parts joined.
std::string content_text(const json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string text;
  if (!content.is_array()) return text;
  for (const json& part : content) {
    const auto found = part.find("text");
    if (found == part.end() || !found->is_string()) continue;
    if (!text.empty()) text += "\n\n";
    text += found->get_ref<const std::string&>();
  }
  return text;
}

class LineParser {
 public:
  LineParser(const std::string& path, std::size_t line_number)
      : path_(path), line_number_(line_number) {}

  [[noreturn]] void fail(const std::string& message) const {
    throw DatasetError(path_, line_number_, message);
  }

  json parse(std::string_view line) const {
    try {
      return json::parse(line);
    } catch (const json::parse_error& error) {
      // nlohmann counts lines within this one line: keep its column and its reason.
      const std::string text = detail::plain_json_error(error.what());
      const auto reason = text.find(": ");
      fail("not valid JSON at column " + std::to_string(error.byte) + ": " +
           (reason == std::string::npos ? text : text.substr(reason + 2)));
    }
  }

  void read_prompt(const json& value, Prompt& prompt) const {
    if (!value.is_string()) fail("\"prompt\" must be a string, got " + type_of(value));
    prompt.text = value.get<std::string>();
    prompt.input_len = util::count_words(prompt.text);
    if (prompt.input_len == 0) fail("\"prompt\" is empty");
  }

  void read_messages(const json& value, Prompt& prompt) const {
    if (!value.is_array()) fail("\"messages\" must be a list of messages, got " + type_of(value));
    if (value.empty()) fail("\"messages\" is an empty list");
    for (std::size_t i = 0; i < value.size(); ++i) {
      const json& message = value[i];
      const std::string where = "messages[" + std::to_string(i) + "]";
      if (!message.is_object()) fail(where + " must be an object, got " + type_of(message));
      const auto role = message.find("role");
      if (role == message.end() || !role->is_string()) {
        fail(where + " needs a \"role\" string");
      }
      const auto content = message.find("content");
      if (content == message.end()) fail(where + " needs a \"content\"");
      const std::optional<std::int64_t> words = content_words(*content);
      if (!words) {
        fail(where + ".content must be a string, a list of content parts or null, got " +
             type_of(*content));
      }
      prompt.input_len += *words;
      const std::string text = content_text(*content);
      if (text.empty()) continue;
      if (!prompt.text.empty()) prompt.text += "\n\n";
      prompt.text += text;
    }
    prompt.messages = value;
  }

  // Paths as the row gives them, resolved against the dataset file's directory (an absolute
  // path stays as it is). The files themselves are checked once, when the file is indexed.
  void read_images(const json& value, Prompt& prompt) const {
    if (value.is_null()) return;
    if (!value.is_array()) {
      fail("\"images\" must be a list of image file paths, got " + type_of(value));
    }
    const std::filesystem::path directory = std::filesystem::path(path_).parent_path();
    for (std::size_t i = 0; i < value.size(); ++i) {
      const json& file = value[i];
      const std::string where = "images[" + std::to_string(i) + "]";
      if (!file.is_string()) fail(where + " must be a file path string, got " + type_of(file));
      if (file.get_ref<const std::string&>().empty()) fail(where + " is an empty path");
      prompt.image_files.push_back((directory / file.get_ref<const std::string&>()).string());
    }
  }

  void read_max_tokens(const json& value, Prompt& prompt) const {
    if (value.is_null()) return;
    if (!value.is_number_integer() || value.get<std::int64_t>() < 1) {
      fail("\"max_tokens\" must be a positive integer, got " + value.dump());
    }
    prompt.dataset_max_tokens = value.get<std::int64_t>();
    prompt.output_len = *prompt.dataset_max_tokens;
  }

 private:
  static std::string type_of(const json& value) { return value.type_name(); }

  const std::string& path_;
  std::size_t line_number_;
};

}  // namespace

Prompt parse_jsonl_request(std::string_view line, const std::string& path, std::size_t line_number,
                           std::int64_t default_output_len) {
  const LineParser parser(path, line_number);
  const json request = parser.parse(line);
  if (!request.is_object()) {
    parser.fail(std::string("expected a JSON object, got ") + request.type_name());
  }
  const auto prompt_field = request.find("prompt");
  const auto messages_field = request.find("messages");
  const bool has_prompt = prompt_field != request.end();
  const bool has_messages = messages_field != request.end();
  if (has_prompt && has_messages) parser.fail("has both \"prompt\" and \"messages\"; give one");
  if (!has_prompt && !has_messages) {
    parser.fail("needs \"prompt\" (a string) or \"messages\" (a list of chat messages)");
  }
  Prompt prompt;
  prompt.output_len = default_output_len;
  if (has_prompt) {
    parser.read_prompt(*prompt_field, prompt);
  } else {
    parser.read_messages(*messages_field, prompt);
  }
  // vLLM's custom dataset names a row's length "output_tokens" (read with --custom-output-len -1).
  auto max_tokens = request.find("max_tokens");
  if (max_tokens == request.end()) max_tokens = request.find("output_tokens");
  if (max_tokens != request.end()) parser.read_max_tokens(*max_tokens, prompt);
  const auto images = request.find("images");
  if (images != request.end()) parser.read_images(*images, prompt);
  return prompt;
}

namespace {

// The content's tokens, as random prompts count theirs: each message's content on its own (the
// template's tokens around them are the server's to add), or the prompt.
std::int64_t tokens_of_content(const Prompt& prompt, const tokenizer::Tokenizer& tokenizer) {
  if (prompt.messages.is_null()) return static_cast<std::int64_t>(tokenizer.count(prompt.text));
  std::int64_t tokens = 0;
  for (const json& message : prompt.messages) {
    tokens += static_cast<std::int64_t>(tokenizer.count(content_text(message.at("content"))));
  }
  return tokens;
}

// A row's images, checked before anything is sent: allowed on the run's endpoint, and each file
// a JPEG or a PNG by its first bytes (which is all of it that is read here). Counted into
// `counted`; throws DatasetError naming the dataset, the row's line and the image file.
void check_row_images(const Prompt& request, const DatasetOptions& options, std::size_t line,
                      DatasetImages& counted) {
  if (request.image_files.empty()) return;
  if (!options.images_refused.empty()) {
    throw DatasetError(options.path, line, "\"images\": " + options.images_refused);
  }
  std::uint64_t file_bytes = 0;
  std::uint64_t url_bytes = 0;
  for (std::size_t i = 0; i < request.image_files.size(); ++i) {
    const std::string& file = request.image_files[i];
    const images::ImageFileCheck check = images::check_image_file(file);
    if (!check.format) {
      throw DatasetError(options.path, line,
                         "images[" + std::to_string(i) + "]: " + file + " " + check.error);
    }
    file_bytes += check.size_bytes;
    url_bytes += images::data_url_size(check.size_bytes);
  }
  counted.add(request.image_files.size(), file_bytes, url_bytes);
}

// Checks every line once; counts them into `lines`, the longest request into `longest` (its
// prompt in tokens of `tokenizer` when given, else words), the rows' images into `images`, and
// returns the request lines' ranges.
IndexedFile index_jsonl(const DatasetOptions& options, const tokenizer::Tokenizer* tokenizer,
                        std::size_t& lines, LongestRequest& longest, DatasetImages& images) {
  if (options.output_len < 1) {
    throw std::invalid_argument("--output-len must be at least 1, got " +
                                std::to_string(options.output_len));
  }
  std::ifstream file = detail::open_dataset_file(options.path, "jsonl");
  std::vector<ItemSpan> requests;
  std::string line;
  std::uint64_t offset = 0;
  while (std::getline(file, line)) {
    ++lines;
    const std::uint64_t line_offset = offset;
    offset += line.size() + 1;  // the newline getline took (one too many after a last line
                                // without one, which no later line needs)
    const std::string_view view = request_text(line, lines);
    if (is_blank(view)) continue;
    const Prompt request = parse_jsonl_request(view, options.path, lines, options.output_len);
    longest.add(tokenizer != nullptr ? tokens_of_content(request, *tokenizer) : request.input_len,
                request.output_len);
    check_row_images(request, options, lines, images);
    requests.push_back(ItemSpan{line_offset, static_cast<std::uint32_t>(line.size()),
                                static_cast<std::uint32_t>(lines)});
  }
  if (file.bad())
    throw DatasetError(options.path, 0, "read error after line " + std::to_string(lines));
  if (requests.empty()) {
    throw DatasetError(options.path, 0,
                       "no request in the file (" + std::to_string(lines) +
                           " lines, all blank); expected one {\"prompt\": ...} or "
                           "{\"messages\": [...]} object a line");
  }
  return IndexedFile(options.path, std::move(requests));
}

}  // namespace

JsonlFile::JsonlFile(DatasetOptions options, const tokenizer::Tokenizer* tokenizer)
    : options_(std::move(options)),
      tokenizer_(tokenizer),
      file_(index_jsonl(options_, tokenizer_, lines_, longest_, images_)) {
  longest_.in_tokens = tokenizer_ != nullptr;
}

Prompt JsonlFile::item(std::size_t item) const {
  const std::string line = file_.read(item);
  const std::size_t line_number = file_.span(item).line;
  Prompt prompt = parse_jsonl_request(request_text(line, line_number), options_.path, line_number,
                                      options_.output_len);
  if (tokenizer_ != nullptr) {
    prompt.input_len = prompt.client_tokens = tokens_of_content(prompt, *tokenizer_);
  }
  return prompt;
}

}  // namespace bench::workload
