// Where the Count3 program claims draw their inputs: every sequence of a SequenceDomain, or the prefixes of ENTP's
// Count3 experiment sequences (Sec. 6.1: a seed of 16 integers from [0, 63] extended to 64 by eq. 4). For the
// experiment, the prefixes x_1..x_m with 16 <= m <= 63 are the ones whose next token the models are trained on.
#pragma once

#include "checkers/sequence_domain.hpp"
#include "constructions/count3/references.hpp"

#include <cstdint>
#include <string>

namespace tverify::count3 {

class InputSource {
 public:
  static InputSource exhaustive(SequenceDomain domain);
  static InputSource experiment(std::uint64_t seed, std::uint64_t samples);

  std::uint64_t size() const;
  Sequence at(std::uint64_t index) const;  // thread-safe
  std::string describe() const;
  const SequenceDomain& domain() const { return domain_; }
  int max_length() const;

  static constexpr int experiment_seed_length = 16, experiment_length = 64;

 private:
  bool experiment_ = false;
  SequenceDomain domain_;
  std::uint64_t seed_ = 0, samples_ = 0;
};

// Runs check(x, tally) on every input of the source (threads by contiguous ranges; deterministic).
template <class Check>
Tally check_inputs(const InputSource& inputs, const RunOptions& options, const std::string& label, Check check) {
  return enumerate_indices<Tally>(
      inputs.size(), options, label,
      [&](std::uint64_t i, Tally& t) {
        t.limit = options.max_counterexamples;
        check(inputs.at(i), t);
      },
      [](Tally& into, Tally&& from) { into.merge(std::move(from)); });
}

}  // namespace tverify::count3
