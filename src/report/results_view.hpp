#pragma once
// Reading a results object (single run or sweep, any schema_version 1 file, old or new) for
// the HTML and terminal renderers: every accessor copes with a missing key or a value of the
// wrong type, since results files come from disk and from older versions of bench. Also the
// number formats the renderers share, which print "-" for what is missing, never "nan".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench::report::view {

using nlohmann::json;

/// A number under `key`; the strings "inf"/"Infinity" (an unlimited request rate) give
/// infinity. Missing, null, boolean or other strings give nothing (results::number_at), as do
/// the input figures of a run whose input token counts are unknown.
std::optional<double> number(const json& object, std::string_view key);

/// An integer count under `key`, or `fallback`.
std::int64_t count(const json& object, std::string_view key, std::int64_t fallback = 0);

/// A string under `key`, or "" (a number or boolean is written as JSON).
std::string text(const json& object, std::string_view key);

bool flag(const json& object, std::string_view key);

/// The object/array under `key`, or nullptr when absent or of another type.
const json* object_at(const json& object, std::string_view key);
const json* array_at(const json& object, std::string_view key);

/// (percentile, value) pairs under distributions.<name> (e.g. "ttft_ms"); malformed pairs are
/// left out.
std::vector<std::pair<double, double>> cdf_points(const json& run, std::string_view name);

/// True for {"kind": "sweep"}, or, in a file without "kind", an array under "points"
/// (results::is_sweep); and for {"kind": "search"}, whose probes are drawn as the sweep they
/// are in load order.
bool is_sweep(const json& results);

/// "1,234.5": fixed decimals with grouped thousands; "-" when missing or not finite.
std::string fixed(std::optional<double> value, int decimals);

/// A mean length: "512" when whole, else one decimal ("70.8"); "-" when missing.
std::string length(std::optional<double> value);

/// A count with grouped thousands: "12,480".
std::string grouped(std::int64_t value);

/// A sweep value as a label: "64", "2.5", "inf".
std::string value_label(std::optional<double> value);

/// The share of a run's input its server's prefix cache served, "49.7%" (one decimal); "n/a"
/// when the server did not disclose it, never a share bench did not measure.
std::string cached_share_label(const json& run);

/// "12.5%" of `part` in `whole` (one decimal), "0.0%" when whole is 0.
std::string percent(std::int64_t part, std::int64_t whole);

/// How the "output"/"input" token count source reads for people, e.g. "server usage",
/// "ESTIMATE from chunk count"; `kind` is "output" or "input".
std::string token_source_label(const json& run, std::string_view kind);

/// True when some output token counts are estimates from the chunk count (chunks_estimate, or
/// mixed with some from chunks).
bool output_is_estimate(const json& run);

}  // namespace bench::report::view
