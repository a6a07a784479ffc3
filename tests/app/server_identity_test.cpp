// What a server says of itself, read from each family's answer (vLLM's /version and /v1/models,
// SGLang's /server_info, llama.cpp's /props, TGI's /info, Ollama's /api/version), and the run's
// longest request held against its max_model_len: refused in tokens, a warning in words, nothing
// when it fits or is unknown.
#include "bench/app/server/server_identity.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace {

using bench::app::check_context_fit;
using bench::app::common_identity;
using bench::app::ContextFit;
using bench::app::identity_json;
using bench::app::read_llamacpp_props;
using bench::app::read_models;
using bench::app::read_ollama_version;
using bench::app::read_sglang_server_info;
using bench::app::read_tgi_info;
using bench::app::read_vllm_version;
using bench::app::ServerIdentity;

TEST(ServerIdentity, ReadsVllmsModelCardAndVersion) {
  ServerIdentity identity;
  EXPECT_TRUE(read_models(
      R"({"object":"list","data":[{"id":"other","max_model_len":1},)"
      R"({"id":"meta-llama/Llama-3.1-8B","object":"model","owned_by":"vllm","max_model_len":8192}]})",
      "meta-llama/Llama-3.1-8B", identity));
  EXPECT_TRUE(read_vllm_version(R"({"version":"0.10.1"})", identity));
  EXPECT_EQ(identity.family, "vllm");
  EXPECT_EQ(identity.version, "0.10.1");
  EXPECT_EQ(identity.model, "meta-llama/Llama-3.1-8B");
  EXPECT_EQ(identity.max_model_len, 8192);  // the asked model's, not the first listed
}

TEST(ServerIdentity, ReadsSglangsServerInfo) {
  ServerIdentity identity;
  EXPECT_TRUE(read_sglang_server_info(
      R"({"model_path":"Qwen/Qwen2.5-7B","context_length":32768,"tp_size":1,"version":"0.4.6"})",
      identity));
  EXPECT_EQ(identity.family, "sglang");
  EXPECT_EQ(identity.version, "0.4.6");
  EXPECT_EQ(identity.model, "Qwen/Qwen2.5-7B");
  EXPECT_EQ(identity.max_model_len, 32768);
}

TEST(ServerIdentity, ReadsLlamaCppsPropsWithItsSlotContext) {
  ServerIdentity identity;
  // llama.cpp's /v1/models gives n_ctx_train, the training context: not the serving limit.
  read_models(R"({"object":"list","data":[{"id":"tiny-llama","owned_by":"llamacpp",)"
              R"("meta":{"n_ctx_train":8192}}]})",
              "tiny-llama", identity);
  EXPECT_FALSE(identity.max_model_len.has_value());
  EXPECT_TRUE(read_llamacpp_props(
      R"({"default_generation_settings":{"n_ctx":2048,"n_predict":-1},"total_slots":4,)"
      R"("model_path":"/models/tiny.gguf","build_info":"b4748-51f311e0"})",
      identity));
  EXPECT_EQ(identity.family, "llama.cpp");
  EXPECT_EQ(identity.version, "b4748-51f311e0");
  EXPECT_EQ(identity.model, "tiny-llama");  // the id it serves under comes first
  EXPECT_EQ(identity.max_model_len, 2048);
}

// TGI's Info (router/src/server.rs): its max_total_tokens bounds prompt and output together.
TEST(ServerIdentity, ReadsTgisInfo) {
  ServerIdentity identity;
  EXPECT_TRUE(read_tgi_info(
      R"({"model_id":"meta-llama/Llama-3.1-8B-Instruct","model_sha":null,)"
      R"("max_input_tokens":4095,"max_total_tokens":4096,"router":"text-generation-router",)"
      R"("version":"3.0.0","sha":null,"docker_label":null})",
      identity));
  EXPECT_EQ(identity.family, "tgi");
  EXPECT_EQ(identity.version, "3.0.0");
  EXPECT_EQ(identity.model, "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(identity.max_model_len, 4096);
}

TEST(ServerIdentity, ReadsOllamasVersion) {
  ServerIdentity identity;
  // Ollama's /v1/models names the model's namespace as its owner: no family.
  read_models(R"({"object":"list","data":[{"id":"llama3.2:latest","owned_by":"library"}]})",
              "llama3.2:latest", identity);
  EXPECT_FALSE(identity.family.has_value());
  EXPECT_TRUE(read_ollama_version(R"({"version":"0.9.0"})", identity));
  EXPECT_EQ(identity.family, "ollama");
  EXPECT_EQ(identity.version, "0.9.0");
  EXPECT_EQ(identity.model, "llama3.2:latest");
}

TEST(ServerIdentity, OtherAnswersAreNotMistakenForOnes) {
  ServerIdentity identity;
  EXPECT_FALSE(read_vllm_version("<html>not found</html>", identity));
  EXPECT_FALSE(read_sglang_server_info(R"({"version":"1"})", identity));
  EXPECT_FALSE(read_llamacpp_props(R"({"detail":"Not Found"})", identity));
  EXPECT_FALSE(read_tgi_info(R"({"model_id":"m","version":"1"})", identity));
  EXPECT_FALSE(read_ollama_version(R"({"error":"not found"})", identity));
  EXPECT_FALSE(read_models("", "m", identity));
  const nlohmann::json written = identity_json(identity);
  EXPECT_TRUE(written.at("family").is_null());
  EXPECT_TRUE(written.at("version").is_null());
  EXPECT_TRUE(written.at("model").is_null());
  EXPECT_TRUE(written.at("max_model_len").is_null());
}

ContextFit fit_of(std::int64_t prompt, std::int64_t output, bool in_tokens,
                  std::optional<std::int64_t> max_model_len) {
  ContextFit fit;
  fit.longest_prompt = prompt;
  fit.longest_output = output;
  fit.in_tokens = in_tokens;
  fit.max_model_len = max_model_len;
  return fit;
}

TEST(ServerIdentity, ALongestRequestBeyondTheContextIsRefusedInTokens) {
  const auto verdict = check_context_fit(fit_of(4000, 200, true, 4096));
  ASSERT_TRUE(verdict.has_value());
  EXPECT_TRUE(verdict->refuse);
  EXPECT_EQ(verdict->line,
            "prompts of up to 4000 tokens plus max_tokens 200 make 4200 tokens, beyond the "
            "model's max_model_len 4096: every such request would be refused; lower --input-len "
            "or --output-len");
}

TEST(ServerIdentity, InWordsItIsAWarning) {
  const auto verdict = check_context_fit(fit_of(4000, 200, false, 4096));
  ASSERT_TRUE(verdict.has_value());
  EXPECT_FALSE(verdict->refuse);
  EXPECT_NE(verdict->line.find("4000 words plus max_tokens 200 may exceed"), std::string::npos);
}

TEST(ServerIdentity, ADatasetsLongestRequestBeyondTheContextIsRefusedInTokens) {
  ContextFit fit = fit_of(3000, 1200, true, 4096);
  fit.dataset = "jsonl";
  fit.remedy = "shorten those lines";
  const auto verdict = check_context_fit(fit);
  ASSERT_TRUE(verdict.has_value());
  EXPECT_TRUE(verdict->refuse);
  EXPECT_EQ(verdict->line,
            "the jsonl dataset's longest request, a prompt of 3000 tokens plus max_tokens 1200, "
            "makes 4200 tokens, beyond the model's max_model_len 4096: every such request would "
            "be refused; shorten those lines");
  fit.longest_output = 1096;  // exactly full
  EXPECT_FALSE(check_context_fit(fit).has_value());
}

// A session's last turn carries its whole history: 4 turns of 1,000-word prompts with replies
// of up to 100 tokens fit one request at a time (1,100) but not the last turn (4,400): a
// warning naming both, since replies may end early.
TEST(ServerIdentity, ASessionsLastTurnBeyondTheContextIsAWarning) {
  ContextFit fit = fit_of(1000, 100, false, 4096);
  fit.turns = 4;
  const auto verdict = check_context_fit(fit);
  ASSERT_TRUE(verdict.has_value());
  EXPECT_FALSE(verdict->refuse);
  EXPECT_FALSE(verdict->unchecked);
  EXPECT_EQ(verdict->line,
            "a session's last turn sends 4 prompts of up to 1000 words and the 3 replies before "
            "it, up to 100 tokens each, and asks max_tokens 100: up to 4400 in all, beyond the "
            "model's max_model_len 4096 tokens; later turns may be refused (fewer --turns, or a "
            "shorter --input-len or --output-len)");
  fit.turns = 3;  // 3,300: fits
  EXPECT_FALSE(check_context_fit(fit).has_value());
}

// A word is one token or several: a dataset read in words is not held against the context at
// all, fitting or not, and the line says so rather than guess.
TEST(ServerIdentity, ADatasetInWordsSaysTheCheckWasNotMade) {
  for (const std::int64_t prompt : {10, 5000}) {
    ContextFit fit = fit_of(prompt, 100, false, 4096);
    fit.dataset = "sharegpt";
    const auto verdict = check_context_fit(fit);
    ASSERT_TRUE(verdict.has_value());
    EXPECT_FALSE(verdict->refuse);
    EXPECT_TRUE(verdict->unchecked);
    EXPECT_EQ(verdict->line,
              fmt::format("context check not made: the sharegpt dataset's lengths are words, not "
                          "tokens (its longest request: {} words plus max_tokens 100; the "
                          "model's max_model_len: 4096 tokens); --tokenizer counts tokens",
                          prompt));
  }
  ContextFit unknown = fit_of(5000, 100, false, std::nullopt);
  unknown.dataset = "sharegpt";
  EXPECT_FALSE(check_context_fit(unknown).has_value());
}

TEST(ServerIdentity, FittingOrUnknownIsNoVerdict) {
  EXPECT_FALSE(check_context_fit(fit_of(3896, 200, true, 4096)).has_value());  // exactly full
  EXPECT_FALSE(check_context_fit(fit_of(100000, 200, true, std::nullopt)).has_value());
}

TEST(ServerIdentity, SeveralServersAreHeldToTheSmallestContextAndDifferencesAreSaid) {
  ServerIdentity first{"vllm", "0.10.1", "m", 8192};
  ServerIdentity second{"vllm", "0.10.1", "m", 4096};
  ServerIdentity third{"sglang", std::nullopt, "m", std::nullopt};
  std::vector<std::string> differences;
  const ServerIdentity common = common_identity(
      {first, second, third}, {"http://a:1", "http://b:1", "http://c:1"}, differences);
  EXPECT_EQ(common.max_model_len, 4096);
  EXPECT_EQ(common.family, "vllm");
  ASSERT_EQ(differences.size(), 1u);
  EXPECT_EQ(differences[0],
            "http://c:1 is sglang ? serving m, unlike http://a:1 (vllm 0.10.1 serving m)");

  differences.clear();
  const ServerIdentity unknown =
      common_identity({third, ServerIdentity{}}, {"x", "y"}, differences);
  EXPECT_FALSE(unknown.max_model_len.has_value());
  EXPECT_TRUE(differences.empty());  // an unknown field differs from nothing
}

}  // namespace
