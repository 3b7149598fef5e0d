// Argmax readout (the output map Phi of Repeat After Me, proof of Thm 2.3: Phi(z) = argmax_x z . Psi(x)) that says
// whether its winner is decided in the scalar type: Certified when the winner's margin over every other entry is
// decided positive, Tie when some other entry is decided equal (Exact) or not smaller, Undecided when an interval
// comparison cannot decide. Only Certified over a rigorous type counts towards a `verified` verdict.
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
  out.margin = Margin::Certified;
  for (std::size_t j = 0; j < scores.size(); ++j) {
    if (j == out.winner) continue;
    const Tri ahead = is_greater(scores[out.winner], scores[j]);
    if (ahead == Tri::False) {
      out.margin = Margin::Tie;
      return out;
    }
    if (ahead == Tri::Unknown) out.margin = Margin::Undecided;
  }
  return out;
}

}  // namespace tverify
