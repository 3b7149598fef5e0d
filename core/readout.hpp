// Argmax readout (the output map Phi of Repeat After Me, proof of Thm 2.3: Phi(z) = argmax_x z . Psi(x)) that says
// whether its winner is decided in the scalar type: Certified when the winner's margin over every other entry is
// decided positive, Tie when every comparison with the winner is decided and some other entry is decided equal,
// Undecided when any interval comparison with the winner cannot decide (an entry it could not compare may be the
// true maximum, so a tie elsewhere decides nothing). Only Certified over a rigorous type counts towards a `verified`
// verdict; a Tie is a failure.
#pragma once

#include "core/linalg.hpp"
#include "core/scalar.hpp"

namespace tverify {

enum class Margin { Certified, Tie, Undecided };

constexpr const char* to_string(Margin m) {
  return m == Margin::Certified ? "certified" : m == Margin::Tie ? "tie" : "undecided";
}

struct ArgmaxReadout {
  std::size_t winner = 0;
  Margin margin = Margin::Undecided;
};

template <class T>
ArgmaxReadout argmax_readout(const Vector<T>& scores) {
  if (scores.empty()) throw std::invalid_argument("argmax of an empty vector");
  ArgmaxReadout out;
  for (std::size_t i = 1; i < scores.size(); ++i)
    if (is_greater(scores[i], scores[out.winner]) == Tri::True) out.winner = i;
  // An entry decided not smaller than the winner is decided equal to it: one decided greater would have become the
  // winner (decided comparisons of intervals are transitive).
  bool tie = false, undecided = false;
  for (std::size_t j = 0; j < scores.size(); ++j) {
    if (j == out.winner) continue;
    const Tri ahead = is_greater(scores[out.winner], scores[j]);
    tie = tie || ahead == Tri::False;
    undecided = undecided || ahead == Tri::Unknown;
  }
  out.margin = undecided ? Margin::Undecided : tie ? Margin::Tie : Margin::Certified;
  return out;
}

}  // namespace tverify
