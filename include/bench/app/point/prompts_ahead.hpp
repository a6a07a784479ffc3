#pragma once
// A point's prompts made before its clock starts. With the server's tokenizer (--tokenizer
// server, or the one bench finds by default) each prompt costs /tokenize requests (a few to
// reach its exact length): made while the point runs, they would load the server under test
// beside the measured requests. Made ahead, they are counted apart and kept out of every figure.
// A request beyond the ones made (a --duration run's, a warm-up by time) falls through to the
// source, made on demand as before, and counted as made during the run.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bench/workload/prompt_source.hpp"

namespace bench::app {

class PromptsAhead final : public workload::PromptSource {
 public:
  /// Makes `source`'s prompts of `indices`, on up to `threads` threads at once (each blocking on
  /// its own exchanges). A prompt whose making throws is left to the source, which throws again
  /// when it is drawn, so that request fails as it would have. `source` outlives this.
  PromptsAhead(const workload::PromptSource& source, const std::vector<std::uint64_t>& indices,
               std::size_t threads);

  workload::Prompt prompt(std::uint64_t index) const override;
  std::optional<std::uint64_t> distinct_prompts() const override {
    return source_.distinct_prompts();
  }
  bool shares_prefixes() const override { return source_.shares_prefixes(); }
  const std::string& summary() const override { return source_.summary(); }
  std::shared_ptr<const std::vector<std::int64_t>> arrival_offsets_ns() const override {
    return source_.arrival_offsets_ns();
  }
  std::optional<workload::LongestRequest> longest_request() const override {
    return source_.longest_request();
  }
  workload::DatasetImages images() const override { return source_.images(); }

  std::size_t made() const { return made_.size(); }

 private:
  const workload::PromptSource& source_;
  std::unordered_map<std::uint64_t, workload::Prompt> made_;
};

}  // namespace bench::app
