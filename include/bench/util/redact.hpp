#pragma once
// Keeps credentials out of everything bench shows or stores. A server may echo what it was sent
// ("Invalid API key: Bearer sk-..."), so every text that came from a server passes through a
// Redactor, built once from the request's credentials, before bench keeps it.
//
// The secrets: the value of every credential-like header (see is_credential_header), and the
// credential alone when the value names a scheme ("KEY" of "Bearer KEY"); the password of the
// URL's userinfo, as written, percent-decoded, and in the Basic form curl sends
// (base64 of "user:password"); the value of each credential query parameter of the URL
// (?api_key=..., see url_with_secrets_hidden), as written and percent-decoded. Each is matched as
// sent and JSON-escaped ('"' and '\' escaped,
// '/' escaped or not), since a server may quote a raw body back.
//
// How they are matched: a secret of kFragmentChars or more characters is hidden wherever any
// kFragmentChars consecutive characters of it appear, so a server that echoes only part of a
// key (its first 8 characters, say, as "sk-proj-ab...") shows none of it; pieces shorter than
// that stay. A shorter secret (e.g. `--api-key EMPTY`) is hidden where it stands as a word (not
// touching a letter, digit, '-' or '_'), so a one-character key does not eat every such
// character of a message. Secrets with non-ASCII characters are matched as UTF-8 only, not in
// a server's \uXXXX form.
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace bench::util {

class Redactor {
 public:
  /// What replaces a hidden secret (one marker for a run of adjacent hidden characters).
  static constexpr std::string_view kMarker = "[REDACTED]";
  /// Secrets this long or longer are hidden by any piece of this many characters.
  static constexpr std::size_t kFragmentChars = 8;

  /// Adds `secret` (spaces around it ignored; an empty one is no secret).
  void add_secret(std::string_view secret);
  /// `text` with every secret hidden.
  std::string redact(std::string_view text) const;
  /// Hides every secret in `text`, in place.
  void redact_in_place(std::string& text) const;
  bool empty() const { return long_forms_.empty() && short_forms_.empty(); }

 private:
  void add_form(std::string form);
  // Marks in `hidden` the characters of `text` that belong to a secret.
  void mark_long_forms(std::string_view text, std::vector<bool>& hidden) const;
  void mark_short_forms(std::string_view text, std::vector<bool>& hidden) const;

  std::vector<std::string> long_forms_;      // forms of kFragmentChars or more characters
  std::vector<std::string> fragments_;       // every kFragmentChars-long piece of them, sorted
  std::array<bool, 256> fragment_starts_{};  // first bytes of the fragments: a quick skip
  std::vector<std::string> short_forms_;     // shorter forms, hidden as whole words
};

/// Whether a header carries credentials: Authorization, Proxy-Authorization, api-key,
/// x-api-key, and any name containing "auth", "key", "token", "secret", "cookie", "password" or
/// "session" (ASCII case-insensitive).
bool is_credential_header(std::string_view name);

/// The Redactor for requests sent with `headers` ("Name: value" lines) to `url`.
Redactor redactor_for_request(const std::vector<std::string>& headers, std::string_view url);

/// The Redactor for requests sent with `headers` to any of `urls` (several servers): every
/// URL's password is a secret.
Redactor redactor_for_servers(const std::vector<std::string>& headers,
                              const std::vector<std::string>& urls);

/// `url` with no userinfo at all and no query or fragment ("http://host:8000/x"): a server's
/// name in a per-server figure, where neither a user name nor a query token belongs.
std::string url_without_credentials(std::string_view url);

/// `url` with the password of its userinfo and the value of each credential query parameter
/// (a name a credential header may have, such as api_key or token, or a signature's "sig")
/// replaced by the marker ("http://user:[REDACTED]@host/v1?api_key=[REDACTED]"); `url` itself
/// when it has neither. Every URL bench shows or stores passes through it.
std::string url_with_secrets_hidden(std::string_view url);

}  // namespace bench::util
