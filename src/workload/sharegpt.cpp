#include "bench/workload/sharegpt.hpp"

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/util/words.hpp"
#include "bench/workload/dataset_error.hpp"
#include "dataset_file.hpp"

namespace bench::workload {
namespace {

using nlohmann::json;

bool is_human(const std::string& from) { return from == "human" || from == "user"; }

// Reads a list of conversations as a stream of SAX events and keeps, per entry, only the first
// human turn's text and the length of the turn answering it: the standard file's DOM would
// take gigabytes. Lengths are words, or tokens of the run's tokenizer when it has one. Nesting:
// depth 1 = the list's entries, 2 = inside an entry, 3 = inside its conversation, 4 = inside a
// turn. Anything else is skipped whole.
//
// Two uses: indexing the file (`file` given: each usable entry's byte range is kept, read off
// the stream's position, which nlohmann advances one character at a time), and reading one
// entry back (no `file`: its prompt is kept).
class ShareGptReader final : public nlohmann::json_sax<json> {
 public:
  ShareGptReader(const DatasetOptions& options, const tokenizer::Tokenizer* tokenizer,
                 std::istream* file)
      : options_(options), tokenizer_(tokenizer), file_(file) {}

  std::vector<ItemSpan>& spans() { return spans_; }
  std::optional<Prompt>& prompt() { return prompt_; }
  const ShareGptStats& stats() const { return stats_; }
  const std::string& json_error() const { return json_error_; }  // set: not valid JSON
  const std::string& top_level() const { return top_level_; }    // set: not a list, but this

  bool null() override { return scalar(nullptr, "null"); }
  bool boolean(bool) override { return scalar(nullptr, "a boolean"); }
  bool number_integer(number_integer_t) override { return scalar(nullptr, "a number"); }
  bool number_unsigned(number_unsigned_t) override { return scalar(nullptr, "a number"); }
  bool number_float(number_float_t, const string_t&) override {
    return scalar(nullptr, "a number");
  }
  bool string(string_t& text) override { return scalar(&text, "a string"); }
  bool binary(binary_t&) override { return scalar(nullptr, "binary data"); }
  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& name) override {
    if (skipping()) return true;
    if (depth_ == 2) {
      slot_ = name == "conversations" || name == "conversation" ? Slot::conversation : Slot::other;
    } else if (depth_ == 4) {
      slot_ = name == "from" ? Slot::from : name == "value" ? Slot::value : Slot::other;
    }
    return true;
  }

  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception& error) override {
    json_error_ = detail::plain_json_error(error.what());
    return false;
  }

 private:
  enum class Slot { other, conversation, from, value };

  bool skipping() const { return skip_until_ >= 0; }

  std::int64_t length_of(const std::string& text) const {
    return tokenizer_ != nullptr ? static_cast<std::int64_t>(tokenizer_->count(text))
                                 : util::count_words(text);
  }

  // Skips the container that is opening now, with everything inside it.
  bool skip_container() {
    skip_until_ = depth_;
    ++depth_;
    return true;
  }

  bool open(bool object) {
    if (skipping()) {
      ++depth_;
      return true;
    }
    switch (depth_) {
      case 0:
        if (object) {
          top_level_ = "an object";
          return false;
        }
        break;
      case 1:
        ++stats_.entries;
        if (!object) {
          ++stats_.malformed;
          return skip_container();
        }
        entry_ = Entry{};
        entry_.begin = position() - 1;  // the '{' just read
        break;
      case 2:
        if (slot_ != Slot::conversation || entry_.has_conversation) return skip_container();
        if (object) {
          entry_.malformed = true;
          return skip_container();
        }
        entry_.has_conversation = true;
        break;
      case 3:
        if (!object) {
          entry_.malformed = true;
          return skip_container();
        }
        turn_ = Turn{};
        break;
      default:  // a container inside a turn: "from" and "value" must be strings
        if (slot_ == Slot::from || slot_ == Slot::value) turn_.malformed = true;
        return skip_container();
    }
    ++depth_;
    slot_ = Slot::other;
    return true;
  }

  bool close() {
    --depth_;
    if (skipping()) {
      if (depth_ == skip_until_) skip_until_ = -1;
      return true;
    }
    if (depth_ == 3) end_turn();
    if (depth_ == 1) end_entry();
    return true;
  }

  bool scalar(std::string* text, const char* kind) {
    if (skipping()) return true;
    switch (depth_) {
      case 0: top_level_ = kind; return false;
      case 1:
        ++stats_.entries;
        ++stats_.malformed;
        break;
      case 2:
        if (slot_ == Slot::conversation && !entry_.has_conversation) entry_.malformed = true;
        break;
      case 3: entry_.malformed = true; break;
      default:
        if (slot_ == Slot::from || slot_ == Slot::value) {
          if (text == nullptr) {
            turn_.malformed = true;
          } else {
            (slot_ == Slot::from ? turn_.from : turn_.value) = std::move(*text);
          }
        }
        break;
    }
    return true;
  }

  void end_turn() {
    ++entry_.turns;
    if (turn_.malformed || !turn_.from || !turn_.value) {
      entry_.malformed = true;
    } else if (!entry_.prompt && is_human(*turn_.from)) {
      entry_.prompt = std::move(*turn_.value);
    } else if (entry_.prompt && !entry_.reply_len && !is_human(*turn_.from) &&
               *turn_.from != "system") {
      entry_.reply_len = length_of(*turn_.value);
    } else if (entry_.prompt && entry_.reply_len && keeps_follow_ups()) {
      add_follow_up();
    }
  }

  // Multi-turn, when reading an entry back: a later human turn opens a follow-up, and the
  // first turn after it from anyone else sets that follow-up's output target.
  bool keeps_follow_ups() const { return options_.follow_ups && file_ == nullptr; }
  void add_follow_up() {
    if (is_human(*turn_.from)) {
      Prompt::FollowUp follow_up;
      follow_up.input_len = length_of(*turn_.value);
      follow_up.text = std::move(*turn_.value);
      follow_up.output_len = -1;  // until a reply says
      entry_.follow_ups.push_back(std::move(follow_up));
    } else if (!entry_.follow_ups.empty() && entry_.follow_ups.back().output_len < 0 &&
               *turn_.from != "system") {
      entry_.follow_ups.back().output_len = length_of(*turn_.value);
    }
  }

  std::uint64_t position() const {
    return file_ != nullptr ? static_cast<std::uint64_t>(file_->tellg()) : 0;
  }

  void end_entry() {
    if (entry_.malformed) {
      ++stats_.malformed;
    } else if (!entry_.has_conversation || entry_.turns < 2) {
      ++stats_.too_few_turns;
    } else if (!entry_.prompt || !entry_.reply_len) {
      ++stats_.no_reply;
    } else {
      keep_if_in_bounds(std::move(*entry_.prompt), *entry_.reply_len);
    }
  }

  // vLLM's is_valid_sequence, in words or tokens; with --sharegpt-context-len, SGLang's
  // context check (sample_sharegpt_requests in python/sglang/bench_serving.py) in place of its
  // upper limits.
  void keep_if_in_bounds(std::string text, std::int64_t reply_len) {
    const std::int64_t prompt_len = length_of(text);
    const std::int64_t output_len = options_.sharegpt_output_len.value_or(reply_len);
    if (prompt_len < kShareGptMinLen ||
        (!options_.sharegpt_output_len && reply_len < kShareGptMinLen)) {
      ++stats_.too_short;
    } else if (too_long(prompt_len, output_len)) {
      ++stats_.too_long;
    } else {
      ++stats_.usable;
      stats_.longest.add(prompt_len, output_len);
      if (file_ != nullptr) {
        const std::uint64_t end = position();  // just past the entry's '}'
        spans_.push_back(ItemSpan{entry_.begin, static_cast<std::uint32_t>(end - entry_.begin), 0});
        return;
      }
      Prompt prompt;
      prompt.text = std::move(text);
      prompt.input_len = prompt_len;
      if (tokenizer_ != nullptr) prompt.client_tokens = prompt_len;
      prompt.output_len = output_len;
      for (Prompt::FollowUp& follow_up : entry_.follow_ups) {
        if (options_.sharegpt_output_len || follow_up.output_len < 1) {
          follow_up.output_len = output_len;
        }
      }
      prompt.follow_ups = std::move(entry_.follow_ups);
      prompt_ = std::move(prompt);
    }
  }

  bool too_long(std::int64_t prompt_len, std::int64_t output_len) const {
    if (options_.sharegpt_context_len) {
      return prompt_len + output_len > *options_.sharegpt_context_len;
    }
    return prompt_len > kShareGptMaxPromptLen || prompt_len + output_len > kShareGptMaxTotalLen;
  }

  struct Turn {
    std::optional<std::string> from;
    std::optional<std::string> value;
    bool malformed = false;
  };
  struct Entry {
    bool has_conversation = false;
    bool malformed = false;
    std::size_t turns = 0;
    std::optional<std::string> prompt;         // the first human turn
    std::optional<std::int64_t> reply_len;     // the first later turn not from the human
    std::uint64_t begin = 0;                   // byte offset of its '{' when indexing
    std::vector<Prompt::FollowUp> follow_ups;  // multi-turn: the later human turns
  };

  const DatasetOptions& options_;
  const tokenizer::Tokenizer* tokenizer_;  // null: lengths are words
  std::istream* file_;
  std::vector<ItemSpan> spans_;
  std::optional<Prompt> prompt_;
  ShareGptStats stats_;
  std::string json_error_;
  std::string top_level_;
  int depth_ = 0;
  int skip_until_ = -1;
  Slot slot_ = Slot::other;
  Entry entry_;
  Turn turn_;
};

std::string why_nothing_usable(const ShareGptStats& stats, const DatasetOptions& options,
                               std::string_view unit) {
  return "no usable conversation among " + std::to_string(stats.entries) + " entries (" +
         std::to_string(stats.malformed) + " malformed, " + std::to_string(stats.too_few_turns) +
         " with fewer than 2 turns, " + std::to_string(stats.no_reply) +
         " without a human turn and a reply, " + std::to_string(stats.too_short) + " under " +
         std::to_string(kShareGptMinLen) + " " + std::string(unit) + ", " +
         std::to_string(stats.too_long) + " over " + sharegpt_length_limits(options, unit) + ")";
}

// Reads the whole file once; fills `stats` and returns the usable conversations' ranges.
IndexedFile index_sharegpt(const DatasetOptions& options, const tokenizer::Tokenizer* tokenizer,
                           ShareGptStats& stats) {
  if (options.sharegpt_output_len && *options.sharegpt_output_len < 1) {
    throw std::invalid_argument("--sharegpt-output-len must be at least 1, got " +
                                std::to_string(*options.sharegpt_output_len));
  }
  std::ifstream file = detail::open_dataset_file(options.path, "ShareGPT");
  ShareGptReader reader(options, tokenizer, &file);
  const bool parsed = json::sax_parse(file, &reader);
  if (!reader.json_error().empty()) {
    throw DatasetError(options.path, 0, "not valid JSON: " + reader.json_error());
  }
  if (!reader.top_level().empty()) {
    throw DatasetError(
        options.path, 0,
        "not a ShareGPT file: expected a JSON list of conversations, found " + reader.top_level());
  }
  if (!parsed) throw DatasetError(options.path, 0, "could not be read as JSON");
  if (reader.spans().empty()) {
    throw DatasetError(options.path, 0,
                       why_nothing_usable(reader.stats(), options, length_unit(tokenizer)));
  }
  stats = reader.stats();
  stats.longest.in_tokens = tokenizer != nullptr;
  return IndexedFile(options.path, std::move(reader.spans()));
}

}  // namespace

std::string_view length_unit(const tokenizer::Tokenizer* tokenizer) {
  return tokenizer != nullptr ? "tokens" : "words";
}

std::string sharegpt_length_limits(const DatasetOptions& options, std::string_view unit) {
  if (options.sharegpt_context_len) {
    return "a context of " + std::to_string(*options.sharegpt_context_len) + " " +
           std::string(unit);
  }
  return std::to_string(kShareGptMaxPromptLen) + " prompt or " +
         std::to_string(kShareGptMaxTotalLen) + " total " + std::string(unit);
}

ShareGptFile::ShareGptFile(DatasetOptions options, const tokenizer::Tokenizer* tokenizer)
    : options_(std::move(options)),
      tokenizer_(tokenizer),
      file_(index_sharegpt(options_, tokenizer_, stats_)) {}

Prompt ShareGptFile::item(std::size_t item) const {
  // The entry alone, as a list of one, through the same reader and the same rules.
  const std::string entry = "[" + file_.read(item) + "]";
  ShareGptReader reader(options_, tokenizer_, nullptr);
  json::sax_parse(entry, &reader);
  if (!reader.prompt()) {
    throw DatasetError(file_.path(), 0,
                       "changed while in use: the conversation at byte " +
                           std::to_string(file_.span(item).offset) + " is no longer usable");
  }
  return std::move(*reader.prompt());
}

}  // namespace bench::workload
