#include "line_reader.hpp"

#include <cctype>
#include <charconv>
#include <limits>
#include <string_view>

namespace bench::server_metrics::detail {
namespace {

constexpr std::size_t kMaxQuotedNameChars = 80;

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_label_char(char c) { return is_letter(c) || is_digit(c) || c == '_'; }
bool is_metric_char(char c) { return is_label_char(c) || c == ':'; }
bool is_blank(char c) { return c == ' ' || c == '\t'; }

bool equals_ignoring_case(std::string_view text, std::string_view lower) {
  if (text.size() != lower.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != lower[i]) return false;
  }
  return true;
}

std::optional<double> parse_named_float(std::string_view text) {
  const bool negative = !text.empty() && text.front() == '-';
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
  if (equals_ignoring_case(text, "inf") || equals_ignoring_case(text, "infinity")) {
    const double inf = std::numeric_limits<double>::infinity();
    return negative ? -inf : inf;
  }
  if (equals_ignoring_case(text, "nan")) return std::numeric_limits<double>::quiet_NaN();
  return std::nullopt;
}

}  // namespace

std::string quoted_name(std::string_view name) {
  if (name.size() <= kMaxQuotedNameChars) return "\"" + std::string(name) + "\"";
  return "\"" + std::string(name.substr(0, kMaxQuotedNameChars)) + "...\"";
}

std::optional<double> parse_float(std::string_view text) {
  if (auto named = parse_named_float(text)) return named;
  for (char c : text) {
    if (!is_digit(c) && c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-') {
      return std::nullopt;
    }
  }
  // std::from_chars takes no leading '+'; Go's ParseFloat does, once.
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty() || text.front() == '+') return std::nullopt;
  double value = 0;
  const auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::int64_t> parse_timestamp_ms(std::string_view text) {
  if (text.empty() || text.front() == '+') return std::nullopt;
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool LineReader::consume(char c) {
  if (peek() != c || at_end()) return false;
  ++pos_;
  return true;
}

bool LineReader::skip_blanks() {
  const std::size_t start = pos_;
  while (!at_end() && is_blank(line_[pos_])) ++pos_;
  return pos_ != start;
}

std::string_view LineReader::metric_name() {
  const std::size_t start = pos_;
  if (at_end() || is_digit(line_[pos_]) || !is_metric_char(line_[pos_])) return {};
  while (!at_end() && is_metric_char(line_[pos_])) ++pos_;
  return line_.substr(start, pos_ - start);
}

std::string_view LineReader::label_name() {
  const std::size_t start = pos_;
  if (at_end() || is_digit(line_[pos_]) || !is_label_char(line_[pos_])) return {};
  while (!at_end() && is_label_char(line_[pos_])) ++pos_;
  return line_.substr(start, pos_ - start);
}

std::string_view LineReader::token() {
  const std::size_t start = pos_;
  while (!at_end() && !is_blank(line_[pos_])) ++pos_;
  return line_.substr(start, pos_ - start);
}

std::string_view LineReader::rest() {
  const std::string_view tail = line_.substr(pos_);
  pos_ = line_.size();
  return tail;
}

std::optional<std::string> LineReader::quoted_label_value(std::string& error) {
  std::string value;
  while (!at_end()) {
    const char c = line_[pos_++];
    if (c == '"') return value;
    if (c != '\\') {
      value.push_back(c);
      continue;
    }
    const char escaped = peek();
    if (escaped == '\\' || escaped == '"') {
      value.push_back(escaped);
    } else if (escaped == 'n' && !at_end()) {
      value.push_back('\n');
    } else {
      error = "invalid escape in a label value (only \\\\, \\\" and \\n are allowed)";
      return std::nullopt;
    }
    ++pos_;
  }
  error = "label value without its closing quote";
  return std::nullopt;
}

std::optional<std::string> unescape_help(std::string_view text, std::string& error) {
  std::string help;
  help.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      help.push_back(text[i]);
      continue;
    }
    const char escaped = i + 1 < text.size() ? text[i + 1] : '\0';
    if (escaped != '\\' && escaped != 'n') {
      error = "invalid escape in HELP text (only \\\\ and \\n are allowed)";
      return std::nullopt;
    }
    help.push_back(escaped == 'n' ? '\n' : '\\');
    ++i;
  }
  return help;
}

}  // namespace bench::server_metrics::detail
