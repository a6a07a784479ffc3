// Sessions from traffic: a request continues the session whose earlier request's messages lead
// its own; else the session its header named; else it starts one. Never across header values.
#include "bench/record/session_finder.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace session_finder_test {

using bench::record::SessionFinder;
using nlohmann::json;

json turn(const std::string& role, const std::string& content) {
  return json{{"role", role}, {"content", content}};
}

json history(const std::vector<json>& messages) { return json(messages); }

TEST(SessionFinder, ARequestThatResendsAnEarlierOnesMessagesContinuesItsSession) {
  SessionFinder finder(3);
  const json system = turn("system", "you are an agent");
  EXPECT_EQ(finder.session_of(history({system, turn("user", "task one")}), ""), 0u);
  EXPECT_EQ(finder.session_of(history({system, turn("user", "task two")}), ""), 1u);
  // Session 0's history, its reply and a tool's result: session 0, whatever came between.
  EXPECT_EQ(finder.session_of(history({system, turn("user", "task one"), turn("assistant", "ls"),
                                       turn("tool", "a b")}),
                              ""),
            0u);
  // The longest match wins: this extends session 0's latest request, not only its first.
  EXPECT_EQ(finder.session_of(
                history({system, turn("user", "task one"), turn("assistant", "ls"),
                         turn("tool", "a b"), turn("assistant", "cat a"), turn("tool", "x")}),
                ""),
            0u);
  // The same request again (a retry): its session.
  EXPECT_EQ(finder.session_of(history({system, turn("user", "task two")}), ""), 1u);
  EXPECT_EQ(finder.sessions(), 2u);
}

TEST(SessionFinder, AFreshContextIsASessionOfItsOwnUnlessItsHeaderNamesOne) {
  SessionFinder finder(3);
  const json system = turn("system", "you are an agent");
  EXPECT_EQ(finder.session_of(history({system, turn("user", "task")}), "s-1"), 0u);
  // A subagent's first request: no earlier message list leads it. Without a header it is new.
  EXPECT_EQ(finder.session_of(history({system, turn("user", "subtask")}), ""), 1u);
  // With its parent's header value it joins the parent's session; with its own, its own.
  EXPECT_EQ(finder.session_of(history({system, turn("user", "other subtask")}), "s-1"), 0u);
  EXPECT_EQ(finder.session_of(history({system, turn("user", "a third")}), "s-1.1"), 2u);
  // A rewritten history (compaction): tied by its header, else new.
  EXPECT_EQ(finder.session_of(history({turn("user", "summary of task")}), "s-1"), 0u);
  EXPECT_EQ(finder.session_of(history({turn("user", "summary of subtask")}), ""), 3u);
}

TEST(SessionFinder, NeverContinuesASessionOfAnotherHeaderValue) {
  SessionFinder finder(3);
  const json first = history({turn("user", "hello")});
  EXPECT_EQ(finder.session_of(first, "a"), 0u);
  // The same words under another header value, or none: another session.
  EXPECT_EQ(finder.session_of(first, "b"), 1u);
  EXPECT_EQ(finder.session_of(first, ""), 2u);
  EXPECT_EQ(
      finder.session_of(
          history({turn("user", "hello"), turn("assistant", "hi"), turn("user", "more")}), "b"),
      1u);
}

TEST(SessionFinder, AMessageIsItsRoleAndTextWhateverElseTheClientMarksOnIt) {
  SessionFinder finder(3);
  EXPECT_EQ(finder.session_of(json::parse(R"([{"role":"user","content":"x y"}])"), ""), 0u);
  // Resent as parts with a cache mark, in another key order: the same message.
  EXPECT_EQ(finder.session_of(json::parse(R"([{"content":[{"type":"text","text":"x y",)"
                                          R"("cache_control":{"type":"ephemeral"}}],)"
                                          R"("role":"user"},{"role":"assistant","content":"z"}])"),
                              ""),
            0u);
  // Another role, or other text: another message.
  EXPECT_EQ(finder.session_of(json::parse(R"([{"role":"system","content":"x y"}])"), ""), 1u);
  EXPECT_EQ(finder.session_of(json::parse(R"([{"role":"user","content":"x y z"}])"), ""), 2u);
}

}  // namespace session_finder_test
