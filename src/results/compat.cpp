// The peers' key meanings, applied to a copy of a results object, and taken off again.
#include "bench/results/compat.hpp"

#include <string>

#include <fmt/format.h>

#include "bench/results/format.hpp"
#include "bench/results/latency_figures.hpp"
#include "bench/results/run_metrics.hpp"
#include "bench/results/shape.hpp"
#include "run_figures.hpp"

namespace bench::results {
namespace {

using nlohmann::json;

std::string_view compat_name(Compat compat) { return compat == Compat::vllm ? "vllm" : "sglang"; }

void copy_key(json& run, const std::string& from, const std::string& to) {
  const auto found = run.find(from);
  if (found != run.end()) run[to] = *found;
}

// The catalogue's name in `compat`'s files for a distribution of the same meaning.
const PeerName& peer_name(const LatencyFigure& figure, Compat compat) {
  return compat == Compat::vllm ? figure.vllm : figure.sglang;
}

// A distribution whose peer name is another of bench's keys (the peers' itl is bench's icl):
// the view writes it under that key, and the displaced figure (bench's per-token itl) moves to
// {stat}_{key}_per_token_ms.
bool displaces(const PeerName& peer, const LatencyFigure& figure) {
  return peer.agreement == Agreement::same && peer.name != figure.key &&
         latency_figure(peer.name) != nullptr;
}

std::string per_token_name(std::string_view displaced) {
  return std::string(displaced) + "_per_token";
}

// vLLM's own names: the catalogue's distributions it names otherwise (not a displacing one), and
// the scalar figures' (run_figures.cpp's vllm_key).
std::vector<KeyAlias> make_key_aliases() {
  std::vector<KeyAlias> aliases;
  for (const RunFigure& figure : run_figures()) {
    if (!figure.vllm_key.empty()) aliases.push_back({std::string(figure.vllm_key), figure.key});
  }
  for (const LatencyFigure& figure : latency_figures()) {
    const PeerName& peer = figure.vllm;
    if (peer.agreement != Agreement::same || peer.name == figure.key || displaces(peer, figure)) {
      continue;
    }
    for (std::string_view stat : kDistributionStats) {
      aliases.push_back({distribution_key(stat, peer.name), distribution_key(stat, figure.key)});
    }
  }
  return aliases;
}

// One run: each displacing distribution under the peer's key (the itl keys hold the chunk gaps
// vLLM's and SGLang's itls lists hold), the displaced one beside it, plus vLLM's names.
void apply(json& run, Compat compat) {
  if (!run.is_object()) return;
  for (const LatencyFigure& figure : latency_figures()) {
    const PeerName& peer = peer_name(figure, compat);
    if (!displaces(peer, figure)) continue;
    for (std::string_view stat : kDistributionStats) {
      const std::string displaced = distribution_key(stat, peer.name);
      copy_key(run, displaced, distribution_key(stat, per_token_name(peer.name)));
      copy_key(run, distribution_key(stat, figure.key), displaced);
    }
  }
  if (compat == Compat::vllm) {
    for (const KeyAlias& alias : key_aliases()) copy_key(run, alias.bench, alias.peer);
  }
  run[kCompatKey] = compat_name(compat);
}

// A point, and each repeat of it (--repeat): every run object of the file gets the view.
void apply_to_point(json& point, Compat compat) {
  apply(point, compat);
  const auto repeats = point.find(key::repeat_runs);
  if (repeats == point.end() || !repeats->is_array()) return;
  for (json& repeat : *repeats) apply(repeat, compat);
}

// The view a run object (or a sweep) says it is: nullopt for bench's own keys, an error for a
// view no bench writes.
std::variant<std::optional<Compat>, FormatError> stated_view(const json& object,
                                                             std::string_view name) {
  const auto found = object.find(kCompatKey);
  if (found == object.end() || found->is_null()) return std::optional<Compat>();
  const std::optional<Compat> compat =
      found->is_string() ? parse_compat(found->get<std::string>()) : std::nullopt;
  if (!compat) {
    return FormatError{
        fmt::format("{}: \"{}\": {} is no view this bench writes (vllm, sglang): "
                    "its keys cannot be read by bench's definitions",
                    name, kCompatKey, found->dump())};
  }
  return compat;
}

// One run object of a view back to bench's keys: the per-token ITL in its place (the view's
// itl is per chunk, bench's icl, which the view kept), the peers' names dropped.
std::optional<FormatError> restore(json& run, std::string_view name) {
  if (!run.is_object()) return std::nullopt;
  auto stated = stated_view(run, name);
  if (auto* error = std::get_if<FormatError>(&stated)) return *error;
  const std::optional<Compat> compat = std::get<std::optional<Compat>>(stated);
  if (!compat) return std::nullopt;
  for (const LatencyFigure& figure : latency_figures()) {
    const PeerName& peer = peer_name(figure, *compat);
    if (!displaces(peer, figure)) continue;
    for (std::string_view stat : kDistributionStats) {
      const std::string displaced = distribution_key(stat, peer.name);
      const std::string per_token = distribution_key(stat, per_token_name(peer.name));
      const auto found = run.find(per_token);
      if (found == run.end()) {
        if (!run.contains(displaced)) continue;
        return FormatError{fmt::format(
            "{}: a --json-compat {} file whose {} is per chunk, without {} (bench's per-token "
            "ITL): it cannot be read by bench's definitions",
            name, compat_name(*compat), displaced, per_token)};
      }
      run[displaced] = *found;
      run.erase(found);
    }
  }
  for (const KeyAlias& alias : key_aliases()) {
    const auto peer = run.find(alias.peer);
    if (peer == run.end()) continue;
    if (!run.contains(alias.bench)) run[alias.bench] = *peer;
    run.erase(alias.peer);
  }
  run.erase(std::string(kCompatKey));
  return std::nullopt;
}

std::optional<FormatError> restore_point(json& point, std::string_view name) {
  if (auto error = restore(point, name)) return error;
  const auto repeats = point.find(key::repeat_runs);
  if (repeats == point.end() || !repeats->is_array()) return std::nullopt;
  for (json& repeat : *repeats) {
    if (auto error = restore(repeat, name)) return error;
  }
  return std::nullopt;
}

bool has_points(const json& results) {
  const auto points = results.find(key::points);
  return points != results.end() && points->is_array();
}

}  // namespace

std::optional<Compat> parse_compat(std::string_view name) {
  if (name == "vllm") return Compat::vllm;
  if (name == "sglang") return Compat::sglang;
  return std::nullopt;
}

const std::vector<KeyAlias>& key_aliases() {
  static const std::vector<KeyAlias> aliases = make_key_aliases();
  return aliases;
}

std::optional<std::string> aliased_key(std::string_view name) {
  for (const KeyAlias& alias : key_aliases()) {
    if (alias.peer == name) return alias.bench;
  }
  return std::nullopt;
}

json compat_view(const json& results, Compat compat) {
  json view = results;
  // A sweep's points, and a search's probes (kept as points).
  const bool search = view.value(key::kind, json()) == kind_name(Kind::search);
  if ((is_sweep(view) || search) && view[key::points].is_array()) {
    for (json& point : view[key::points]) apply_to_point(point, compat);
    view[kCompatKey] = compat_name(compat);
  } else {
    apply_to_point(view, compat);
  }
  return view;
}

std::variant<json, FormatError> native_view(const json& results, std::string_view name) {
  if (!results.is_object()) return results;  // classify() says what it is not
  json native = results;
  if (has_points(native)) {
    auto stated = stated_view(native, name);
    if (auto* error = std::get_if<FormatError>(&stated)) return *error;
    native.erase(std::string(kCompatKey));
    for (json& point : native[key::points]) {
      if (auto error = restore_point(point, name)) return *error;
    }
    return native;
  }
  if (auto error = restore_point(native, name)) return *error;
  return native;
}

}  // namespace bench::results
