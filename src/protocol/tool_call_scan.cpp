// delta.tool_calls read on the chunk scanner's JSON cursor, and decoded into a Chunk.
#include "tool_call_scan.hpp"

#include <string_view>

namespace bench::protocol::json_scan {
namespace {

// Keys of the objects read here, one bit each, to see repeats.
enum ToolCallKey : unsigned {
  kId = 1u << 0,
  kFunction = 1u << 1,
  kName = 1u << 2,
  kArguments = 1u << 3,
  kIndex = 1u << 4,
};

bool function_object(JsonCursor& json, ToolCallFragment& fragment) {
  unsigned seen = 0;
  return json.object(5, [&](const RawString& name) {
    const std::string_view k = name.raw;
    if (is(k, "name")) {
      return JsonCursor::first_time(name, kName, seen) && json.optional_string(fragment.name, 5);
    }
    if (is(k, "arguments")) {
      return JsonCursor::first_time(name, kArguments, seen) &&
             json.optional_string(fragment.arguments, 5);
    }
    return !name.escaped && json.value(5);
  });
}

// The element counts (as the DOM path's) only when its "function" is an object; its index and
// id may come before or after it.
bool tool_call_object(JsonCursor& json, ToolCallFragments& found) {
  if (found.count == kMaxToolCallFragments) return false;
  ToolCallFragment& fragment = found.items[found.count];
  fragment = ToolCallFragment{};
  bool has_function = false;
  unsigned seen = 0;
  const bool valid = json.object(4, [&](const RawString& name) {
    const std::string_view k = name.raw;
    if (is(k, "index")) {
      return JsonCursor::first_time(name, kIndex, seen) && json.count(fragment.index, 4);
    }
    if (is(k, "id")) {
      return JsonCursor::first_time(name, kId, seen) && json.optional_string(fragment.id, 4);
    }
    if (!is(k, "function")) return !name.escaped && json.value(4);
    if (!JsonCursor::first_time(name, kFunction, seen)) return false;
    if (!json.at('{')) return json.value(4);
    has_function = true;
    return function_object(json, fragment);
  });
  if (valid && has_function) ++found.count;
  return valid;
}

}  // namespace

bool scan_tool_calls(JsonCursor& json, ToolCallFragments& found) {
  return json.array(3, [&](std::size_t) {
    if (!json.at('{')) return json.value(4);
    return tool_call_object(json, found);
  });
}

void add_tool_calls(const ToolCallFragments& found, Chunk& chunk) {
  for (std::size_t i = 0; i < found.count; ++i) {
    const ToolCallFragment& fragment = found.items[i];
    Chunk::ToolCallFragment& out = chunk.tool_call_fragments.emplace_back();
    out.index = fragment.index;
    if (fragment.id) assign_decoded(out.id, *fragment.id);
    if (fragment.name && !fragment.name->raw.empty()) {
      append_decoded(chunk.tool_call_text, *fragment.name);
      assign_decoded(chunk.tool_call_names.emplace_back(), *fragment.name);
      out.name = chunk.tool_call_names.back();
    }
    if (fragment.arguments) {
      append_decoded(chunk.tool_call_text, *fragment.arguments);
      assign_decoded(out.arguments, *fragment.arguments);
    }
  }
}

}  // namespace bench::protocol::json_scan
