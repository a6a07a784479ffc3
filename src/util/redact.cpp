#include "bench/util/redact.hpp"

#include <algorithm>
#include <cstdint>

#include "bench/util/text.hpp"

namespace bench::util {

namespace {

bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

// The secret as a JSON string's contents: '"', '\' and control characters escaped, and '/' too
// when `escape_slash` (JSON allows "\/", and some servers write it).
std::string json_escaped(std::string_view secret, bool escape_slash) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char c : secret) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\' || (c == '/' && escape_slash)) {
      out += '\\';
      out += c;
    } else if (byte < 0x20) {
      out += "\\u00";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    } else {
      out += c;
    }
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = ascii_lower(c);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

std::string percent_decoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 &&
        hex_value(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// RFC 4648 base64 with padding, as in an "Authorization: Basic" header (RFC 7617).
std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t group = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (i + 1 < bytes.size()) group |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) group |= static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[(group >> 18) & 63];
    out += kAlphabet[(group >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(group >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[group & 63] : '=';
  }
  return out;
}

// Where the userinfo of `url` lies ("scheme://userinfo@host..."): its start and length, or
// npos when there is none. The authority ends at the first '/', '?' or '#' after "://".
std::pair<std::size_t, std::size_t> userinfo_span(std::string_view url) {
  const std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return {std::string_view::npos, 0};
  const std::size_t start = scheme_end + 3;
  const std::size_t authority_end = std::min(url.find_first_of("/?#", start), url.size());
  const std::size_t at = url.substr(0, authority_end).rfind('@');
  if (at == std::string_view::npos || at < start) return {std::string_view::npos, 0};
  return {start, at - start};
}

// Whether a query parameter named `name` carries a credential: the names a credential header
// may have (an api_key, access_token, key), and a signed URL's signature (Azure's SAS "sig").
bool is_credential_parameter(std::string_view name) {
  const std::string lowered = ascii_lowered(name);
  return is_credential_header(lowered) || lowered == "sig" || lowered == "signature" ||
         lowered == "code";
}

// Each "name=value" of `url`'s query (between '?' and '#'): the value's start and length when the
// name is a credential's.
std::vector<std::pair<std::size_t, std::size_t>> credential_values(std::string_view url) {
  std::vector<std::pair<std::size_t, std::size_t>> values;
  const std::size_t query = url.find('?');
  if (query == std::string_view::npos) return values;
  const std::size_t end = std::min(url.find('#', query), url.size());
  for (std::size_t start = query + 1; start < end;) {
    const std::size_t amp = std::min(url.find('&', start), end);
    const std::string_view pair = url.substr(start, amp - start);
    const std::size_t equals = pair.find('=');
    if (equals != std::string_view::npos && is_credential_parameter(pair.substr(0, equals)) &&
        equals + 1 < pair.size()) {
      values.emplace_back(start + equals + 1, pair.size() - equals - 1);
    }
    start = amp + 1;
  }
  return values;
}

}  // namespace

void Redactor::add_secret(std::string_view secret) {
  secret = trim(secret);
  if (secret.empty()) return;
  add_form(std::string(secret));
  add_form(json_escaped(secret, false));
  add_form(json_escaped(secret, true));
}

void Redactor::add_form(std::string form) {
  if (form.size() < kFragmentChars) {
    if (std::find(short_forms_.begin(), short_forms_.end(), form) == short_forms_.end()) {
      short_forms_.push_back(std::move(form));
    }
    return;
  }
  if (std::find(long_forms_.begin(), long_forms_.end(), form) != long_forms_.end()) return;
  for (std::size_t i = 0; i + kFragmentChars <= form.size(); ++i) {
    fragments_.push_back(form.substr(i, kFragmentChars));
    fragment_starts_[static_cast<unsigned char>(form[i])] = true;
  }
  std::sort(fragments_.begin(), fragments_.end());
  fragments_.erase(std::unique(fragments_.begin(), fragments_.end()), fragments_.end());
  long_forms_.push_back(std::move(form));
}

void Redactor::mark_long_forms(std::string_view text, std::vector<bool>& hidden) const {
  if (fragments_.empty()) return;
  for (std::size_t i = 0; i + kFragmentChars <= text.size(); ++i) {
    if (!fragment_starts_[static_cast<unsigned char>(text[i])]) continue;
    const std::string_view piece = text.substr(i, kFragmentChars);
    const auto found = std::lower_bound(fragments_.begin(), fragments_.end(), piece);
    if (found == fragments_.end() || *found != piece) continue;
    std::fill(hidden.begin() + static_cast<std::ptrdiff_t>(i),
              hidden.begin() + static_cast<std::ptrdiff_t>(i + kFragmentChars), true);
  }
}

void Redactor::mark_short_forms(std::string_view text, std::vector<bool>& hidden) const {
  for (const std::string& form : short_forms_) {
    for (std::size_t at = text.find(form); at != std::string_view::npos;
         at = text.find(form, at + 1)) {
      const std::size_t end = at + form.size();
      const bool word_before = at > 0 && is_word_char(text[at - 1]);
      const bool word_after = end < text.size() && is_word_char(text[end]);
      if (word_before || word_after) continue;
      std::fill(hidden.begin() + static_cast<std::ptrdiff_t>(at),
                hidden.begin() + static_cast<std::ptrdiff_t>(end), true);
    }
  }
}

std::string Redactor::redact(std::string_view text) const {
  if (empty()) return std::string(text);
  std::vector<bool> hidden(text.size(), false);
  mark_long_forms(text, hidden);
  mark_short_forms(text, hidden);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!hidden[i]) {
      out += text[i];
    } else if (i == 0 || !hidden[i - 1]) {
      out += kMarker;
    }
  }
  return out;
}

void Redactor::redact_in_place(std::string& text) const {
  if (!empty() && !text.empty()) text = redact(text);
}

bool is_credential_header(std::string_view name) {
  const std::string lowered = ascii_lowered(trim(name));
  for (const std::string_view word :
       {"auth", "key", "token", "secret", "cookie", "password", "session"}) {
    if (lowered.find(word) != std::string::npos) return true;
  }
  return false;
}

namespace {

// The password of `url`'s userinfo, in each form a server may echo, and the values of its
// credential query parameters (as written and percent-decoded).
void add_url_secrets(Redactor& redactor, std::string_view url) {
  for (const auto& [value_start, value_length] : credential_values(url)) {
    const std::string_view value = url.substr(value_start, value_length);
    redactor.add_secret(value);
    redactor.add_secret(percent_decoded(value));
  }
  const auto [start, length] = userinfo_span(url);
  if (start == std::string_view::npos) return;
  const std::string_view userinfo = url.substr(start, length);
  if (const std::size_t colon = userinfo.find(':'); colon != std::string_view::npos) {
    const std::string_view password = userinfo.substr(colon + 1);
    redactor.add_secret(password);
    redactor.add_secret(percent_decoded(password));
    // curl sends URL credentials as Basic authentication of the decoded "user:password".
    redactor.add_secret(base64(percent_decoded(userinfo)));
  }
}

}  // namespace

Redactor redactor_for_request(const std::vector<std::string>& headers, std::string_view url) {
  Redactor redactor;
  for (const std::string& header : headers) {
    const std::size_t colon = header.find(':');
    if (colon == std::string::npos || !is_credential_header(header.substr(0, colon))) continue;
    const std::string_view value = trim(std::string_view(header).substr(colon + 1));
    // "Bearer KEY", "Basic B64" (RFC 9110, 11.4): the credential is what follows the scheme, and
    // the scheme stays readable. Any other value is a secret whole.
    const std::size_t space = value.find(' ');
    const bool has_scheme = space != std::string_view::npos && space > 0 &&
                            std::all_of(value.begin(), value.begin() + space, is_ascii_letter);
    redactor.add_secret(has_scheme ? value.substr(space + 1) : value);
  }
  add_url_secrets(redactor, url);
  return redactor;
}

Redactor redactor_for_servers(const std::vector<std::string>& headers,
                              const std::vector<std::string>& urls) {
  Redactor redactor = redactor_for_request(headers, urls.empty() ? "" : urls.front());
  for (std::size_t i = 1; i < urls.size(); ++i) add_url_secrets(redactor, urls[i]);
  return redactor;
}

std::string url_without_credentials(std::string_view url) {
  std::string shown(url.substr(0, url.find_first_of("?#")));
  const auto [start, length] = userinfo_span(shown);
  if (start != std::string_view::npos) shown.erase(start, length + 1);  // and its '@'
  return shown;
}

std::string url_with_secrets_hidden(std::string_view url) {
  std::string shown(url);
  // Right to left, so the earlier spans stay where they were found.
  const auto values = credential_values(url);
  for (auto value = values.rbegin(); value != values.rend(); ++value) {
    shown.replace(value->first, value->second, Redactor::kMarker);
  }
  const auto [start, length] = userinfo_span(shown);
  if (start == std::string_view::npos) return shown;
  const std::size_t colon = std::string_view(shown).substr(start, length).find(':');
  if (colon == std::string_view::npos) return shown;
  shown.replace(start + colon + 1, length - colon - 1, Redactor::kMarker);
  return shown;
}

}  // namespace bench::util
