#pragma once
// A strict XML 1.0 well-formedness checker and a tiny DOM, for the tests of the SVG and HTML
// renderers (whose output is meant to be well-formed XML: polyglot HTML with inline SVG).
// Strict where browsers forgive: every tag closed and nested, attributes quoted and unique, no
// raw '<' or '&' in text or attribute values, only the five XML entities and character
// references, valid UTF-8, no control characters. A <!DOCTYPE> and comments are skipped.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bench::test {

struct XmlNode {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // decoded values
  std::vector<std::unique_ptr<XmlNode>> children;
  std::vector<std::string> texts{""};  // decoded text before children[i]; the last: after all

  const std::string* attribute(std::string_view key) const {
    for (const auto& [k, v] : attributes) {
      if (k == key) return &v;
    }
    return nullptr;
  }
  bool has_class(std::string_view css_class) const {
    const std::string* classes = attribute("class");
    if (classes == nullptr) return false;
    std::size_t pos = 0;
    while (pos <= classes->size()) {
      const std::size_t end = std::min(classes->find(' ', pos), classes->size());
      if (std::string_view(*classes).substr(pos, end - pos) == css_class) return true;
      pos = end + 1;
    }
    return false;
  }
  /// The text directly inside this element, children's text left out.
  std::string own_text() const {
    std::string out;
    for (const std::string& t : texts) out += t;
    return out;
  }
  /// All text inside, in document order (what a reader sees, without spacing rules).
  std::string text() const {
    std::string out = texts.front();
    for (std::size_t i = 0; i < children.size(); ++i) out += children[i]->text() + texts[i + 1];
    return out;
  }
  /// Every element named `tag` below this one (depth first, document order).
  std::vector<const XmlNode*> find_all(std::string_view tag) const {
    std::vector<const XmlNode*> found;
    collect(tag, found);
    return found;
  }

 private:
  void collect(std::string_view tag, std::vector<const XmlNode*>& found) const {
    for (const auto& child : children) {
      if (child->name == tag) found.push_back(child.get());
      child->collect(tag, found);
    }
  }
};

class XmlError : public std::runtime_error {
 public:
  XmlError(const std::string& what, std::size_t offset)
      : std::runtime_error(what + " at byte " + std::to_string(offset)) {}
};

class XmlParser {
 public:
  explicit XmlParser(std::string_view text) : s_(text) {}

  /// The root element; throws XmlError naming the first problem and its byte offset.
  std::unique_ptr<XmlNode> parse() {
    check_characters();
    skip_misc(true);
    if (!at("<")) fail("expected the root element");
    auto root = element();
    skip_misc(false);
    if (pos_ != s_.size()) fail("content after the root element");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw XmlError(what, pos_); }
  bool at(std::string_view token) const { return s_.substr(pos_, token.size()) == token; }
  void skip_space() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }
  void skip_past(std::string_view end, const char* what) {
    const std::size_t found = s_.find(end, pos_);
    if (found == std::string_view::npos) fail(std::string("unterminated ") + what);
    pos_ = found + end.size();
  }

  // Valid UTF-8 (no overlongs, surrogates or code points past U+10FFFF) and no control
  // characters other than tab, newline and carriage return (XML 1.0 section 2.2).
  void check_characters() {
    for (pos_ = 0; pos_ < s_.size();) {
      const auto c = static_cast<unsigned char>(s_[pos_]);
      if (c < 0x80) {
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') fail("control character");
        ++pos_;
        continue;
      }
      std::size_t n = 0;
      unsigned char lo = 0x80, hi = 0xBF;
      if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
      } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80;
        hi = c == 0xED ? 0x9F : 0xBF;
      } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF;
      } else {
        fail("invalid UTF-8 lead byte");
      }
      if (pos_ + n > s_.size()) fail("truncated UTF-8 sequence");
      for (std::size_t k = 1; k < n; ++k) {
        const auto next = static_cast<unsigned char>(s_[pos_ + k]);
        if (k == 1 ? (next < lo || next > hi) : (next < 0x80 || next > 0xBF)) {
          fail("invalid UTF-8 continuation byte");
        }
      }
      pos_ += n;
    }
    pos_ = 0;
  }

  // Whitespace, comments, and before the root an XML declaration and a doctype.
  void skip_misc(bool prolog) {
    for (;;) {
      skip_space();
      if (at("<!--")) {
        skip_past("-->", "comment");
      } else if (prolog && at("<?xml")) {
        skip_past("?>", "XML declaration");
      } else if (prolog && (at("<!DOCTYPE") || at("<!doctype"))) {
        skip_past(">", "doctype");
      } else {
        return;
      }
    }
  }

  std::string name() {
    const std::size_t start = pos_;
    auto first = [](char c) {
      return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':';
    };
    auto rest = [&](char c) {
      return first(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.';
    };
    if (pos_ >= s_.size() || !first(s_[pos_])) fail("expected a name");
    while (pos_ < s_.size() && rest(s_[pos_])) ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }

  static std::string utf8(unsigned long code) {
    std::string out;
    auto byte = [&](unsigned long b) { out += static_cast<char>(b); };
    if (code < 0x80) {
      byte(code);
    } else if (code < 0x800) {
      byte(0xC0 | (code >> 6)), byte(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      byte(0xE0 | (code >> 12)), byte(0x80 | ((code >> 6) & 0x3F)), byte(0x80 | (code & 0x3F));
    } else {
      byte(0xF0 | (code >> 18)), byte(0x80 | ((code >> 12) & 0x3F));
      byte(0x80 | ((code >> 6) & 0x3F)), byte(0x80 | (code & 0x3F));
    }
    return out;
  }

  // An entity or character reference, after its '&'.
  std::string reference() {
    const std::size_t end = s_.find(';', pos_);
    if (end == std::string_view::npos || end - pos_ > 10) fail("'&' that starts no reference");
    const std::string_view ref = s_.substr(pos_, end - pos_);
    std::string out;
    if (ref == "amp") {
      out = "&";
    } else if (ref == "lt") {
      out = "<";
    } else if (ref == "gt") {
      out = ">";
    } else if (ref == "quot") {
      out = "\"";
    } else if (ref == "apos") {
      out = "'";
    } else if (ref.size() > 1 && ref[0] == '#') {
      const bool hex = ref[1] == 'x';
      const std::string_view digits = ref.substr(hex ? 2 : 1);
      if (digits.empty()) fail("empty character reference");
      unsigned long code = 0;
      for (char d : digits) {
        const bool ok = hex ? std::isxdigit(static_cast<unsigned char>(d)) != 0
                            : std::isdigit(static_cast<unsigned char>(d)) != 0;
        if (!ok) fail("bad character reference");
        code = code * (hex ? 16 : 10) +
               static_cast<unsigned long>(std::isdigit(static_cast<unsigned char>(d))
                                              ? d - '0'
                                              : std::tolower(static_cast<unsigned char>(d)) - 'a' +
                                                    10);
      }
      if (code < 0x20 && code != 0x9 && code != 0xA && code != 0xD)
        fail("reference to a control character");
      if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) fail("reference to no character");
      out = utf8(code);
    } else {
      fail("unknown entity &" + std::string(ref) + ";");
    }
    pos_ = end + 1;
    return out;
  }

  std::unique_ptr<XmlNode> element() {
    ++pos_;  // '<'
    auto node = std::make_unique<XmlNode>();
    node->name = name();
    for (;;) {
      const std::size_t before = pos_;
      skip_space();
      if (at("/>")) {
        pos_ += 2;
        return node;
      }
      if (at(">")) {
        ++pos_;
        break;
      }
      if (pos_ == before) fail("expected whitespace before an attribute");
      std::string key = name();
      skip_space();
      if (!at("=")) fail("attribute " + key + " has no value");
      ++pos_;
      skip_space();
      if (pos_ >= s_.size() || (s_[pos_] != '"' && s_[pos_] != '\'')) {
        fail("attribute " + key + " is not quoted");
      }
      const char quote = s_[pos_++];
      std::string value;
      while (pos_ < s_.size() && s_[pos_] != quote) {
        if (s_[pos_] == '<') fail("'<' in attribute " + key);
        if (s_[pos_] == '&') {
          ++pos_;
          value += reference();
        } else {
          value += s_[pos_++];
        }
      }
      if (pos_ >= s_.size()) fail("unterminated attribute " + key);
      ++pos_;
      if (node->attribute(key) != nullptr) fail("duplicate attribute " + key);
      node->attributes.emplace_back(std::move(key), std::move(value));
    }
    // Content: text, references, comments, CDATA and child elements, until the end tag.
    for (;;) {
      if (pos_ >= s_.size()) fail("unclosed element <" + node->name + ">");
      if (at("</")) {
        pos_ += 2;
        const std::string closing = name();
        if (closing != node->name) fail("</" + closing + "> closes <" + node->name + ">");
        skip_space();
        if (!at(">")) fail("malformed end tag");
        ++pos_;
        return node;
      }
      if (at("<!--")) {
        skip_past("-->", "comment");
      } else if (at("<![CDATA[")) {
        const std::size_t start = pos_ + 9;
        skip_past("]]>", "CDATA section");
        node->texts.back() += std::string(s_.substr(start, pos_ - 3 - start));
      } else if (at("<")) {
        node->children.push_back(element());
        node->texts.emplace_back();
      } else if (s_[pos_] == '&') {
        ++pos_;
        node->texts.back() += reference();
      } else {
        if (at("]]>")) fail("']]>' in text");
        node->texts.back() += s_[pos_++];
      }
    }
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

/// The root element of `text`; throws XmlError when it is not well-formed.
inline std::unique_ptr<XmlNode> parse_xml(std::string_view text) { return XmlParser(text).parse(); }

}  // namespace bench::test
