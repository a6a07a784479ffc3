// The Hugging Face hub cache read as huggingface_hub lays it out: the cache's place from the
// environment, a repo's main snapshot through refs/main, and what is said when it is missing.
#include "bench/tokenizer/hub_cache.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "run_process.hpp"

namespace bench::tokenizer {
namespace {

namespace fs = std::filesystem;

// A repo's snapshot `hash` in `cache`, refs/main naming it, holding `files` (empty contents).
fs::path put_snapshot(const fs::path& cache, const std::string& folder, const std::string& hash,
                      std::initializer_list<const char*> files) {
  const fs::path repo = cache / folder;
  fs::create_directories(repo / "refs");
  fs::create_directories(repo / "snapshots" / hash);
  std::ofstream(repo / "refs" / "main") << hash;  // huggingface_hub writes no newline
  for (const char* file : files) std::ofstream(repo / "snapshots" / hash / file) << "{}";
  return repo / "snapshots" / hash;
}

TEST(HubCacheDir, hf_hub_cache_comes_first_then_the_legacy_name_then_hf_home) {
  HubEnvironment env;
  env.home = "/home/u";
  EXPECT_EQ(hub_cache_dir(env), fs::path("/home/u/.cache/huggingface/hub"));
  env.xdg_cache_home = "/xdg";
  EXPECT_EQ(hub_cache_dir(env), fs::path("/xdg/huggingface/hub"));
  env.hf_home = "~/hf";
  EXPECT_EQ(hub_cache_dir(env), fs::path("/home/u/hf/hub"));
  env.huggingface_hub_cache = "/legacy";
  EXPECT_EQ(hub_cache_dir(env), fs::path("/legacy"));
  env.hf_hub_cache = "~/hub";
  EXPECT_EQ(hub_cache_dir(env), fs::path("/home/u/hub"));
}

TEST(LooksLikeRepoId, org_and_name_or_a_name_alone_but_not_a_file) {
  EXPECT_TRUE(looks_like_repo_id("meta-llama/Llama-3.1-8B-Instruct"));
  EXPECT_TRUE(looks_like_repo_id("gpt2"));
  EXPECT_TRUE(looks_like_repo_id("Qwen/Qwen2.5-0.5B"));
  EXPECT_FALSE(looks_like_repo_id("tokenizer.json"));
  EXPECT_FALSE(looks_like_repo_id("/models/llama"));
  EXPECT_FALSE(looks_like_repo_id("a/b/c"));
  EXPECT_FALSE(looks_like_repo_id("org--x/name"));
  EXPECT_FALSE(looks_like_repo_id("-org/name"));
  EXPECT_FALSE(looks_like_repo_id(""));
  testing::TempDir dir;
  EXPECT_FALSE(looks_like_repo_id(dir.path()));  // an existing path is a path
}

TEST(FindCachedTokenizer, follows_refs_main_to_the_snapshot_tokenizer_json) {
  testing::TempDir dir;
  const fs::path snapshot =
      put_snapshot(dir.path(), "models--meta-llama--Llama-3.1-8B", "abc123", {"tokenizer.json"});
  put_snapshot(dir.path(), "models--meta-llama--Llama-3.1-8B", "old999", {"tokenizer.json"});
  std::ofstream(fs::path(dir.path()) / "models--meta-llama--Llama-3.1-8B" / "refs" / "main")
      << "abc123";
  const HubLookup found = find_cached_tokenizer("meta-llama/Llama-3.1-8B", dir.path());
  EXPECT_EQ(found.status, HubLookupStatus::found);
  EXPECT_EQ(found.path, snapshot / "tokenizer.json");
}

TEST(FindCachedTokenizer, a_repo_not_in_the_cache_names_the_cache_and_the_download) {
  testing::TempDir dir;
  const HubLookup lookup = find_cached_tokenizer("org/model", dir.path());
  EXPECT_EQ(lookup.status, HubLookupStatus::not_cached);
  EXPECT_EQ(hub_lookup_problem("org/model", lookup),
            "org/model is not in the Hugging Face cache at " + dir.path() +
                "; bench does not download: `huggingface-cli download org/model "
                "tokenizer.json`, or --tokenizer server");
}

TEST(FindCachedTokenizer, a_snapshot_without_the_main_ref_is_not_taken) {
  // huggingface_hub takes no snapshot that refs/main does not name, nor shall bench.
  testing::TempDir dir;
  fs::create_directories(fs::path(dir.path()) / "models--org--m" / "snapshots" / "h1");
  std::ofstream(fs::path(dir.path()) / "models--org--m" / "snapshots" / "h1" / "tokenizer.json");
  EXPECT_EQ(find_cached_tokenizer("org/m", dir.path()).status, HubLookupStatus::not_cached);
}

TEST(FindCachedTokenizer, a_slow_tokenizer_alone_is_said_apart) {
  testing::TempDir dir;
  put_snapshot(dir.path(), "models--org--slow", "h", {"tokenizer.model", "config.json"});
  put_snapshot(dir.path(), "models--org--bare", "h", {"config.json"});
  const HubLookup slow = find_cached_tokenizer("org/slow", dir.path());
  EXPECT_EQ(slow.status, HubLookupStatus::slow_tokenizer);
  EXPECT_NE(hub_lookup_problem("org/slow", slow).find("only a slow tokenizer"), std::string::npos);
  EXPECT_EQ(find_cached_tokenizer("org/bare", dir.path()).status, HubLookupStatus::no_tokenizer);
}

}  // namespace
}  // namespace bench::tokenizer
