#pragma once
// Where a model's tokenizer.json lies in the Hugging Face hub cache, found as huggingface_hub
// lays it out and reads it back (huggingface_hub constants.py and try_to_load_from_cache):
//   cache    $HF_HUB_CACHE, else $HUGGINGFACE_HUB_CACHE, else $HF_HOME/hub, else
//            $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub ('~' expanded);
//   repo     <cache>/models--{org}--{name} (each '/' of the repo id becomes "--");
//   revision refs/main holds the commit hash of the snapshot "main" stands for;
//   file     snapshots/<hash>/tokenizer.json.
// bench only reads the cache: it never downloads, so HF_HUB_OFFLINE and the like change nothing.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace bench::tokenizer {

/// The environment the cache's place is read from; unset variables are nullopt.
struct HubEnvironment {
  std::optional<std::string> hf_hub_cache;           // HF_HUB_CACHE
  std::optional<std::string> huggingface_hub_cache;  // HUGGINGFACE_HUB_CACHE (legacy)
  std::optional<std::string> hf_home;                // HF_HOME
  std::optional<std::string> xdg_cache_home;         // XDG_CACHE_HOME
  std::optional<std::string> home;                   // HOME
};

/// This process's environment.
HubEnvironment process_hub_environment();

/// The hub cache directory the environment names (it may not exist).
std::filesystem::path hub_cache_dir(const HubEnvironment& env);

/// Whether `text` reads as a Hugging Face repo id ("org/name" or "name": letters, digits, '-',
/// '_' and '.', no "--" or "..", at most 96 characters; huggingface_hub validate_repo_id) rather
/// than a file: a path that exists, or names a .json file, is a file.
bool looks_like_repo_id(std::string_view text);

enum class HubLookupStatus {
  found,           // `path` is the snapshot's tokenizer.json
  not_cached,      // no snapshot of the repo's main revision: `path` is the repo's folder
  slow_tokenizer,  // the snapshot has no tokenizer.json, only a slow tokenizer's files
  no_tokenizer,    // the snapshot has no tokenizer file at all
};

struct HubLookup {
  HubLookupStatus status = HubLookupStatus::not_cached;
  std::filesystem::path path;  // the tokenizer.json, or where it was looked for
};

/// The tokenizer.json of `repo_id`'s main revision in `cache`.
HubLookup find_cached_tokenizer(std::string_view repo_id, const std::filesystem::path& cache);

/// One line for a lookup that found nothing, naming where it looked and what to do
/// ("meta-llama/X is not in the Hugging Face cache at PATH; bench does not download: ...").
std::string hub_lookup_problem(std::string_view repo_id, const HubLookup& lookup);

}  // namespace bench::tokenizer
