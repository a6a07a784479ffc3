// The Redactor keeps credentials out of server text: whole, JSON-escaped, after a scheme, in
// part, and in a URL's userinfo; and leaves everything else as it was.
#include "bench/util/redact.hpp"
#include "bench/util/url.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using bench::util::is_credential_header;
using bench::util::Redactor;
using bench::util::redactor_for_request;
using bench::util::url_with_secrets_hidden;
using bench::util::url_without_credentials;

constexpr const char* kKey = "sk-test-SECRET-0123456789abcdef";

Redactor key_redactor() {
  return redactor_for_request(
      {"Content-Type: application/json", std::string("Authorization: Bearer ") + kKey},
      "http://127.0.0.1:8000");
}

TEST(Redactor, HidesTheKeyAndItsBearerForm) {
  EXPECT_EQ(key_redactor().redact(std::string("Invalid API key: Bearer ") + kKey + "."),
            "Invalid API key: Bearer [REDACTED].");
  EXPECT_EQ(key_redactor().redact(std::string("key ") + kKey + " and again " + kKey),
            "key [REDACTED] and again [REDACTED]");
}

TEST(Redactor, HidesAnEchoedPrefixOfEightCharactersOrMore) {
  const Redactor redactor = key_redactor();
  EXPECT_EQ(redactor.redact("Incorrect API key provided: sk-test-SEC***********cdef"),
            "Incorrect API key provided: [REDACTED]***********cdef");
  EXPECT_EQ(redactor.redact("the middle: SECRET-0123 only"), "the middle: [REDACTED] only");
  // Seven characters are below the threshold: shown.
  EXPECT_EQ(redactor.redact("sk-test*****"), "sk-test*****");
}

TEST(Redactor, HidesTheJsonEscapedForm) {
  Redactor redactor;
  redactor.add_secret(R"(pa"ss\word/1234)");
  EXPECT_EQ(redactor.redact(R"({"error":"bad key pa\"ss\\word\/1234"})"),
            R"({"error":"bad key [REDACTED]"})");
  EXPECT_EQ(redactor.redact(R"({"error":"bad key pa\"ss\\word/1234"})"),
            R"({"error":"bad key [REDACTED]"})");
}

TEST(Redactor, HidesAShortSecretOnlyAsAWholeWord) {
  Redactor redactor;
  redactor.add_secret("1");
  EXPECT_EQ(redactor.redact("HTTP 401: key 1 is wrong"), "HTTP 401: key [REDACTED] is wrong");
  redactor.add_secret("EMPTY");
  EXPECT_EQ(redactor.redact("Bearer EMPTY, EMPTY_KEY"), "Bearer [REDACTED], EMPTY_KEY");
}

TEST(Redactor, LeavesTextWithoutSecretsAlone) {
  EXPECT_EQ(key_redactor().redact("HTTP 500: upstream timed out"), "HTTP 500: upstream timed out");
  EXPECT_EQ(Redactor().redact("anything at all"), "anything at all");
  EXPECT_TRUE(Redactor().empty());
}

TEST(Redactor, HidesCredentialHeaderValuesButNotOthers) {
  const Redactor redactor =
      redactor_for_request({"X-Api-Key: hdr-secret-value-42", "Cookie: session=cookie-secret-99",
                            "X-Request-Source: load-test-bench"},
                           "http://127.0.0.1:8000");
  EXPECT_EQ(redactor.redact("got hdr-secret-value-42 and session=cookie-secret-99"),
            "got [REDACTED] and [REDACTED]");
  EXPECT_EQ(redactor.redact("from load-test-bench"), "from load-test-bench");
}

TEST(Redactor, HidesTheCredentialAfterAnyScheme) {
  const Redactor redactor =
      redactor_for_request({"Proxy-Authorization: Token abc12"}, "http://127.0.0.1:8000");
  EXPECT_EQ(redactor.redact("token abc12 refused"), "token [REDACTED] refused");
}

TEST(Redactor, HidesTheUrlPasswordInEveryForm) {
  const Redactor redactor = redactor_for_request({}, "http://alice:p%40ss-word-xyz@127.0.0.1:8000");
  EXPECT_EQ(redactor.redact("bad password p@ss-word-xyz"), "bad password [REDACTED]");
  EXPECT_EQ(redactor.redact("bad password p%40ss-word-xyz"), "bad password [REDACTED]");
  // curl sends it as Basic base64("alice:p@ss-word-xyz").
  EXPECT_EQ(redactor.redact("Basic YWxpY2U6cEBzcy13b3JkLXh5eg== refused"),
            "Basic [REDACTED] refused");
  EXPECT_EQ(redactor.redact("user alice"), "user alice");
}

TEST(IsCredentialHeader, KnowsTheUsualNamesInAnyCase) {
  for (const char* name : {"Authorization", "proxy-authorization", "API-KEY", "x-api-key",
                           "X-Auth-Token", "X-Client-Secret", "Cookie", "X-Session-Id"}) {
    EXPECT_TRUE(is_credential_header(name)) << name;
  }
  for (const char* name : {"Content-Type", "Accept", "X-Request-Id", "User-Agent"}) {
    EXPECT_FALSE(is_credential_header(name)) << name;
  }
}

TEST(UrlWithSecretsHidden, HidesOnlyThePassword) {
  EXPECT_EQ(url_with_secrets_hidden("http://user:pass@host:8000/v1"),
            "http://user:[REDACTED]@host:8000/v1");
  EXPECT_EQ(url_with_secrets_hidden("https://user@host"), "https://user@host");
  EXPECT_EQ(url_with_secrets_hidden("http://127.0.0.1:8000"), "http://127.0.0.1:8000");
  // An '@' after the authority is not userinfo.
  EXPECT_EQ(url_with_secrets_hidden("http://host/path?mail=a:b@c"), "http://host/path?mail=a:b@c");
}

TEST(UrlWithSecretsHidden, HidesTheValueOfEveryCredentialQueryParameter) {
  EXPECT_EQ(url_with_secrets_hidden("http://h:8000/v1?api_key=sk-123&model=m"),
            "http://h:8000/v1?api_key=[REDACTED]&model=m");
  EXPECT_EQ(url_with_secrets_hidden("http://u:p@h/x?api-version=2024&access_token=t0k#frag"),
            "http://u:[REDACTED]@h/x?api-version=2024&access_token=[REDACTED]#frag");
  // A signed URL's signature (Azure's SAS) and a bare key.
  EXPECT_EQ(url_with_secrets_hidden("https://h/v1/models?sv=1&sig=abc%2Fdef&key=k"),
            "https://h/v1/models?sv=1&sig=[REDACTED]&key=[REDACTED]");
  // Names that carry no credential, and an empty value, stay.
  EXPECT_EQ(url_with_secrets_hidden("http://h/?version=2&token="), "http://h/?version=2&token=");
}

TEST(RedactorForRequest, HidesACredentialQueryValueAsWrittenAndDecoded) {
  const auto redactor =
      bench::util::redactor_for_request({}, "http://h:8000/v1?api_key=sk-abc%2B0123456789");
  EXPECT_EQ(redactor.redact("bad key sk-abc%2B0123456789"), "bad key [REDACTED]");
  EXPECT_EQ(redactor.redact("bad key sk-abc+0123456789"), "bad key [REDACTED]");
  EXPECT_EQ(redactor.redact("model m"), "model m");
}

TEST(UrlJoin, PutsTheRouteBeforeTheQueryAndTheFragment) {
  using bench::util::url_join;
  EXPECT_EQ(url_join("http://h:8000", "/v1/models"), "http://h:8000/v1/models");
  EXPECT_EQ(url_join("http://h:8000?api_key=k", "/v1/models"), "http://h:8000/v1/models?api_key=k");
  EXPECT_EQ(url_join("http://h/gw?a=1&b=2#f", "/metrics"), "http://h/gw/metrics?a=1&b=2#f");
  EXPECT_EQ(url_join("http://h/p#f", "/x"), "http://h/p/x#f");
}

TEST(UrlWithoutCredentials, DropsTheWholeUserinfoAndAnyQuery) {
  EXPECT_EQ(url_without_credentials("http://user:pass@host:8000/v1"), "http://host:8000/v1");
  EXPECT_EQ(url_without_credentials("https://user@host"), "https://host");
  EXPECT_EQ(url_without_credentials("http://host:1/x?token=secret#f"), "http://host:1/x");
  EXPECT_EQ(url_without_credentials("http://127.0.0.1:8000"), "http://127.0.0.1:8000");
}

TEST(RedactorForServers, HidesThePasswordOfEveryServer) {
  const auto redactor = bench::util::redactor_for_servers(
      {"Authorization: Bearer sk-0123456789"},
      {"http://a:first-secret-1@h1:1", "http://b:second-secret-2@h2:1"});
  EXPECT_EQ(redactor.redact("k sk-0123456789 first-secret-1 second-secret-2"),
            "k [REDACTED] [REDACTED] [REDACTED]");
}

}  // namespace
