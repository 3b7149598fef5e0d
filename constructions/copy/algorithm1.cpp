#include "constructions/copy/algorithm1.hpp"

#include <algorithm>

namespace tverify::copy {
namespace {

// (x_{i-n}, .., x_{i-1}) for a 1-based position i.
TokenString preceding_ngram(const TokenString& seq, int i, int n) {
  return TokenString(seq.begin() + (i - 1 - n), seq.begin() + (i - 1));
}

}  // namespace

int first_key_position(Alg1Variant variant, int n) { return variant == Alg1Variant::Paper ? n + 2 : n + 1; }

Alg1Run run_algorithm1(const TokenString& x, int n, Alg1Variant variant, bool trace) {
  const int length = static_cast<int>(x.size());
  Alg1Run run;
  std::vector<TokenString> keys;  // keys[k] = k_i for i = key_positions[k]
  for (int i = first_key_position(variant, n); i <= length; ++i) {
    run.key_positions.push_back(i);
    keys.push_back(preceding_ngram(x, i, n));
  }
  for (int j = 1; j <= length; ++j) {
    Alg1Step step;
    step.position = j;
    if (j <= n) {
      step.copied_directly = true;
      step.output = x[static_cast<std::size_t>(j - 1)];
    } else {
      step.query = preceding_ngram(run.output, j, n);
      for (std::size_t k = 0; k < keys.size(); ++k)
        if (keys[k] == step.query) step.matching_keys.push_back(run.key_positions[k]);
      if (!step.matching_keys.empty()) step.output = x[static_cast<std::size_t>(step.matching_keys.front() - 1)];
    }
    if (trace) run.steps.push_back(step);
    if (!step.output) {
      run.failure = "step " + std::to_string(j) + ": no key k_i equals q_" + std::to_string(j) + " = (" +
                    format_tokens(step.query) + ")";
      return run;
    }
    run.output.push_back(*step.output);
  }
  run.copied = run.output == x;
  if (!run.copied) {
    auto diff = std::mismatch(run.output.begin(), run.output.end(), x.begin());
    run.failure = "step " + std::to_string(diff.first - run.output.begin() + 1) + ": output differs from the input";
  }
  return run;
}

}  // namespace tverify::copy
