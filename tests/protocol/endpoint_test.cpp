// The endpoint table: its invariants, and each row's body and stream interpretation.
#include "bench/protocol/endpoint.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "bench/protocol/openai.hpp"

namespace {

using bench::metrics::Figure;
using bench::protocol::Chunk;
using bench::protocol::Endpoint;
using bench::protocol::EndpointSpec;
using bench::protocol::InputShape;
using bench::protocol::RequestOptions;
using nlohmann::json;

TEST(EndpointTable, EveryRowIsFoundByItsIdAndName) {
  std::set<std::string_view> names;
  std::set<std::string_view> paths;
  for (const EndpointSpec& spec : bench::protocol::endpoints()) {
    SCOPED_TRACE(spec.name);
    EXPECT_TRUE(names.insert(spec.name).second);
    EXPECT_TRUE(paths.insert(spec.path).second);
    EXPECT_EQ(bench::protocol::endpoint_spec(spec.id).name, spec.name);
    EXPECT_EQ(bench::protocol::find_endpoint(spec.name), spec.id);
    EXPECT_EQ(spec.path.substr(0, 4), "/v1/");
    EXPECT_NE(spec.help.find(spec.path), std::string_view::npos);
  }
  EXPECT_EQ(bench::protocol::find_endpoint("embeddings"), std::nullopt);
}

TEST(EndpointTable, EveryRowCanBuildAndReadItsStream) {
  for (const EndpointSpec& spec : bench::protocol::endpoints()) {
    SCOPED_TRACE(spec.name);
    EXPECT_NE(spec.prompt_body, nullptr);
    EXPECT_NE(spec.interpret, nullptr);
    // Messages are built by the endpoints that take them, and only by them.
    EXPECT_EQ(spec.messages_body != nullptr, spec.input == InputShape::messages);
    EXPECT_EQ(bench::protocol::takes_messages(spec.id), spec.input == InputShape::messages);
    // Every streamed endpoint times its first token and the gaps after it.
    EXPECT_TRUE(spec.figures.has(Figure::ttft));
    EXPECT_TRUE(spec.figures.has(Figure::token_gaps));
    EXPECT_FALSE(spec.usage.output_tokens.empty());
  }
}

TEST(EndpointTable, ChatProducesEveryFigureCompletionsNoReasoningToolsOrImages) {
  for (const Figure figure : bench::metrics::kAllFigures) {
    EXPECT_TRUE(bench::protocol::produces(Endpoint::chat, figure))
        << bench::metrics::figure_name(figure);
  }
  EXPECT_TRUE(bench::protocol::produces(Endpoint::completions, Figure::ttft));
  EXPECT_TRUE(bench::protocol::produces(Endpoint::completions, Figure::cached_input));
  EXPECT_FALSE(bench::protocol::produces(Endpoint::completions, Figure::reasoning));
  EXPECT_FALSE(bench::protocol::produces(Endpoint::completions, Figure::tool_calls));
  EXPECT_FALSE(bench::protocol::produces(Endpoint::completions, Figure::images));
}

RequestOptions options_for(Endpoint endpoint) {
  RequestOptions options;
  options.endpoint = endpoint;
  options.model = "m";
  options.max_tokens = 5;
  options.tools = json::array({{{"type", "function"}, {"function", {{"name", "f"}}}}});
  return options;
}

TEST(EndpointBodies, EachRowBuildsItsOwnInput) {
  const json chat = json::parse(bench::protocol::endpoint_spec(Endpoint::chat)
                                    .prompt_body(options_for(Endpoint::chat), "hi"));
  EXPECT_EQ(chat["messages"], json::parse(R"([{"role":"user","content":"hi"}])"));
  EXPECT_EQ(chat["tools"][0]["function"]["name"], "f");
  const json completions = json::parse(bench::protocol::endpoint_spec(Endpoint::completions)
                                           .prompt_body(options_for(Endpoint::completions), "hi"));
  EXPECT_EQ(completions["prompt"], "hi");
  EXPECT_FALSE(completions.contains("tools"));  // a prompt has no tool calls to make
  EXPECT_FALSE(completions.contains("messages"));
}

TEST(EndpointBodies, MessagesGoAsTheyAre) {
  const json messages =
      json::parse(R"([{"role":"system","content":"s"},{"role":"user","content":"u"}])");
  const json body = json::parse(bench::protocol::endpoint_spec(Endpoint::chat)
                                    .messages_body(options_for(Endpoint::chat), messages));
  EXPECT_EQ(body["messages"], messages);
  EXPECT_EQ(body["stream"], true);
}

TEST(EndpointStreams, EachRowReadsItsChunks) {
  Chunk chunk;
  bench::protocol::endpoint_spec(Endpoint::chat)
      .interpret(R"({"choices":[{"index":0,"delta":{"content":" hi"}}]})", chunk);
  EXPECT_EQ(chunk.kind, Chunk::Kind::data);
  EXPECT_EQ(chunk.answer(), " hi");
  bench::protocol::endpoint_spec(Endpoint::completions)
      .interpret(R"({"choices":[{"index":0,"text":" yo","finish_reason":"length"}],)"
                 R"("usage":{"prompt_tokens":3,"completion_tokens":1}})",
                 chunk);
  EXPECT_EQ(chunk.answer(), " yo");
  EXPECT_EQ(chunk.finish_reason, "length");
  EXPECT_EQ(chunk.completion_tokens, 1);
  EXPECT_FALSE(bench::protocol::endpoint_spec(Endpoint::chat).named_events);
}

}  // namespace
