#pragma once
// delta.tool_calls in a streamed chunk (OpenAI's chat API: [{"index", "id", "type", "function":
// {"name", "arguments"}}, ...]), read by the chunk scanner (chunk_scanner.cpp) on its JSON
// cursor: the fragments as views while the payload is validated, decoded into the Chunk once it
// has proved to be valid JSON. Internal to the protocol module.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "bench/protocol/openai.hpp"
#include "json_cursor.hpp"

namespace bench::protocol::json_scan {

// One element of delta.tool_calls: its index and id, and its function's name and argument
// fragment, when they are of their types.
struct ToolCallFragment {
  std::optional<std::int64_t> index;
  std::optional<RawString> id, name, arguments;
};
// Streams send one fragment a chunk, or one per call started together; more go the DOM way.
constexpr std::size_t kMaxToolCallFragments = 8;

// The fragments of one chunk's tool_calls that are objects with a "function" object.
struct ToolCallFragments {
  std::array<ToolCallFragment, kMaxToolCallFragments> items;
  std::size_t count = 0;
};

// The array at the cursor (its '['), at depth 3 as in choices[0].delta, into `found`; false to
// give up (invalid JSON, a repeated or escaped key it reads, more than kMaxToolCallFragments).
bool scan_tool_calls(JsonCursor& json, ToolCallFragments& found);

// The fragments decoded into the chunk: each its Chunk::ToolCallFragment, their names and
// arguments appended to tool_call_text (the tokens they cost), and each name to
// tool_call_names.
void add_tool_calls(const ToolCallFragments& found, Chunk& chunk);

}  // namespace bench::protocol::json_scan
