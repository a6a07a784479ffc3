#include "bench/tokenizer/hub_cache.hpp"

#include <cstdlib>
#include <fstream>
#include <system_error>

namespace bench::tokenizer {

namespace {

namespace fs = std::filesystem;

std::optional<std::string> hub_variable(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

// os.path.expanduser: a leading "~" (alone or before '/') is the home directory.
std::string expand_home(const std::string& path, const HubEnvironment& env) {
  if (!env.home || path.empty() || path[0] != '~') return path;
  if (path.size() > 1 && path[1] != '/') return path;  // "~user" is left as written
  return *env.home + path.substr(1);
}

bool repo_id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

// One part of a repo id: huggingface_hub's [\w\-.]+ between word boundaries, so it neither
// starts nor ends with '-' or '.'.
bool repo_id_part(std::string_view part) {
  if (part.empty()) return false;
  for (char c : part) {
    if (!repo_id_char(c)) return false;
  }
  const auto edge = [](char c) { return c != '-' && c != '.'; };
  return edge(part.front()) && edge(part.back());
}

bool is_regular(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

// refs/<revision> holds the commit hash; without it the revision is taken as the hash itself.
std::string resolve_revision(const fs::path& repo, const std::string& revision) {
  std::ifstream ref(repo / "refs" / revision);
  std::string hash;
  if (!ref || !std::getline(ref, hash)) return revision;
  while (!hash.empty() && (hash.back() == '\r' || hash.back() == ' ')) hash.pop_back();
  return hash.empty() ? revision : hash;
}

}  // namespace

HubEnvironment process_hub_environment() {
  return {hub_variable("HF_HUB_CACHE"), hub_variable("HUGGINGFACE_HUB_CACHE"),
          hub_variable("HF_HOME"), hub_variable("XDG_CACHE_HOME"), hub_variable("HOME")};
}

fs::path hub_cache_dir(const HubEnvironment& env) {
  if (env.hf_hub_cache) return expand_home(*env.hf_hub_cache, env);
  if (env.huggingface_hub_cache) return expand_home(*env.huggingface_hub_cache, env);
  if (env.hf_home) return fs::path(expand_home(*env.hf_home, env)) / "hub";
  const std::string cache_home =
      env.xdg_cache_home ? *env.xdg_cache_home : expand_home("~/.cache", env);
  return fs::path(cache_home) / "huggingface" / "hub";
}

bool looks_like_repo_id(std::string_view text) {
  if (text.empty() || text.size() > 96) return false;
  if (text.find("--") != std::string_view::npos || text.find("..") != std::string_view::npos) {
    return false;
  }
  if (text.size() > 5 && text.substr(text.size() - 5) == ".json") return false;
  std::error_code error;
  if (fs::exists(fs::path(text), error)) return false;
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return repo_id_part(text);
  return repo_id_part(text.substr(0, slash)) && repo_id_part(text.substr(slash + 1));
}

HubLookup find_cached_tokenizer(std::string_view repo_id, const fs::path& cache) {
  std::string folder = "models--";
  for (char c : repo_id) {
    if (c == '/') {
      folder += "--";
    } else {
      folder += c;
    }
  }
  const fs::path repo = cache / folder;
  const fs::path snapshot = repo / "snapshots" / resolve_revision(repo, "main");
  std::error_code error;
  if (!fs::is_directory(snapshot, error)) return {HubLookupStatus::not_cached, repo};
  if (is_regular(snapshot / "tokenizer.json")) {
    return {HubLookupStatus::found, snapshot / "tokenizer.json"};
  }
  // A slow tokenizer's files: SentencePiece's model, GPT-2's vocab and merges, WordPiece's vocab.
  for (const char* slow : {"tokenizer.model", "spiece.model", "vocab.json", "vocab.txt"}) {
    if (is_regular(snapshot / slow)) return {HubLookupStatus::slow_tokenizer, snapshot};
  }
  return {HubLookupStatus::no_tokenizer, snapshot};
}

std::string hub_lookup_problem(std::string_view repo_id, const HubLookup& lookup) {
  const std::string id(repo_id);
  const std::string download =
      "`huggingface-cli download " + id + " tokenizer.json`, or --tokenizer server";
  switch (lookup.status) {
    case HubLookupStatus::found: return "";
    case HubLookupStatus::not_cached:
      return id + " is not in the Hugging Face cache at " + lookup.path.parent_path().string() +
             "; bench does not download: " + download;
    case HubLookupStatus::slow_tokenizer:
      return id + " has only a slow tokenizer in the Hugging Face cache (" + lookup.path.string() +
             ": no tokenizer.json), and bench reads tokenizer.json: " + download;
    case HubLookupStatus::no_tokenizer:
      return id + " has no tokenizer.json in the Hugging Face cache (" + lookup.path.string() +
             "): " + download;
  }
  return "";
}

}  // namespace bench::tokenizer
