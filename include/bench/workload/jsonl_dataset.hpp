#pragma once
// The "jsonl" dataset: one request a line, your own prompts.
//   {"prompt": "Explain RAID 5 in two sentences."}
//   {"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}],
//    "max_tokens": 64}
//   {"prompt": "What is in these pictures?", "images": ["cat.jpg", "photos/dog.png"]}
// "prompt" is a non-empty string; "messages" a non-empty list of chat messages, each with a
// string "role" and a "content" that is a string, a list of OpenAI content parts, or null;
// exactly one of the two. "max_tokens" (a positive integer, optional) is that request's
// output length; without it --output-len applies. "images" (optional, chat only) lists image
// files, paths relative to the dataset file's directory, sent after the (last) user message's
// text as base64 data URLs (images/image_file.hpp); each must be a JPEG or a PNG by its first
// bytes, whatever its name. Other keys are ignored. Blank lines are skipped. vLLM's "custom"
// dataset reads the same {"prompt": ...} lines (and applies the model's chat template
// client-side, which bench does not: it sends the prompt as the user message, or the messages
// as given).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/tokenizer/tokenizer.hpp"
#include "bench/workload/dataset.hpp"
#include "bench/workload/dataset_images.hpp"
#include "bench/workload/indexed_file.hpp"
#include "bench/workload/longest_request.hpp"
#include "bench/workload/prompt.hpp"

namespace bench::workload {

/// One line as a request. Throws DatasetError(path, line_number, what is wrong): not JSON
/// (with the column), not an object, neither or both of prompt/messages, a wrong type or an
/// empty value, a bad max_tokens, "images" not a list of paths. The image files are not
/// opened here: `image_files` holds their paths, resolved against `path`'s directory.
Prompt parse_jsonl_request(std::string_view line, const std::string& path, std::size_t line_number,
                           std::int64_t default_output_len);

/// A jsonl file, indexed: every line is checked once when it is opened (a bad file fails on its
/// first bad line, before any request is sent), and only the request lines' byte ranges are
/// kept; a line is read and parsed again when its request is due (indexed_file.hpp). Which
/// lines a run sends, in which order, is the prompt source's business (prompt_source.hpp).
class JsonlFile {
 public:
  /// Throws DatasetError naming the file when it cannot be read or holds no request, and
  /// naming file and line for a bad line (an image file that is missing or neither a JPEG nor
  /// a PNG, or any "images" when options.images_refused says why not, included);
  /// std::invalid_argument for output_len < 1. Reads
  /// path and output_len (for lines without "max_tokens") of the options. With `tokenizer`
  /// (which outlives the file) each request's input_len and client_tokens are its content's
  /// tokens; without one, input_len is words.
  explicit JsonlFile(DatasetOptions options, const tokenizer::Tokenizer* tokenizer = nullptr);

  std::size_t size() const { return file_.size(); }  // request lines
  std::size_t lines() const { return lines_; }       // lines in the file, blank ones included

  /// The request of request line `item` (< size(), in file order). Safe from several threads.
  Prompt item(std::size_t item) const;

  /// Its longest request, in tokens with a tokenizer (content only, as item() counts it), else
  /// words.
  const LongestRequest& longest_request() const { return longest_; }

  /// The image files its request lines name ("images"), each checked when the file was opened.
  const DatasetImages& images() const { return images_; }

 private:
  DatasetOptions options_;
  const tokenizer::Tokenizer* tokenizer_;
  std::size_t lines_ = 0;
  LongestRequest longest_;
  DatasetImages images_;
  IndexedFile file_;
};

}  // namespace bench::workload
