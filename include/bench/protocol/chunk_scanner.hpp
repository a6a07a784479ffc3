#pragma once
// The hot path of chunk interpretation: one pass over a streamed `data:` payload that extracts
// exactly what a Chunk holds, without building a JSON document.
//
// interpret_chunk used to parse every payload into an nlohmann DOM: a tree of heap nodes per
// chunk, built and thrown away, for the three or four strings bench keeps. The scanner reads the
// same bytes once, validating the whole payload as strict JSON (RFC 8259, exactly the grammar
// and UTF-8 rules nlohmann::json::parse enforces), and gives up on anything unusual, which then
// goes the DOM way as before. So the result is the DOM path's, only faster: the unit tests and
// the fuzzer (fuzz/) compare the two on every shape they can produce.
//
// What makes it give up (each rare in real streams, and decided by the DOM path instead):
// - anything but a JSON object at the top (the [DONE] sentinel included), or a leading BOM;
// - a repeated key among the ones it reads (nlohmann keeps the last; the scanner does not guess);
// - an escaped key name inside an object it reads, which could spell a key it reads;
// - an "error" value other than a string or an object with a non-empty string "message";
// - a token count that is not a plain non-negative integer of at most 18 digits;
// - nesting deeper than 64, or a number that could overflow a double (nlohmann rejects those);
// - any JSON error at all: the DOM path then produces the "malformed" chunk and its message.
#include <string_view>

#include "bench/protocol/openai.hpp"

namespace bench::protocol {

/// Fills `chunk` from `data` and returns true when `data` is a JSON object the scanner fully
/// understands; otherwise returns false and leaves `chunk` valid but unspecified. Never throws
/// and allocates only by growing chunk's strings.
bool scan_chunk(std::string_view data, Chunk& chunk);

/// The reference interpretation, by an nlohmann DOM parse; defined in openai.cpp beside the
/// helpers it shares with the other readers of server JSON. Never throws.
Chunk interpret_chunk_dom(std::string_view data);

/// interpret_chunk into an existing Chunk: the scanner, then the DOM path when it gives up.
/// A Chunk reused across a stream keeps its strings' capacity, so that steady state allocates
/// nothing per chunk. Never throws.
void interpret_chunk_into(std::string_view data, Chunk& chunk);

}  // namespace bench::protocol
