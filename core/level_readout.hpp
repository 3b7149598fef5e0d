// The certified readout of one attention step when the scores are exact and grouped by level (proof of Theorem 2.3
// of Repeat After Me; shared by the exact copy evaluator and the fast integer path, so both decide identically):
//   keys with equal score z_l get equal softmax weight w_l = E_l / sum_m c_m E_m, E_l = exp(tau (z_l - z_top)),
//   and the readout of token x is r_x = sum_l w_l V_{l,x}, V_{l,x} = the exact sum over the level's keys of
//   T^value_j . Psi(x). One interval exponential per level.
// Decision: a certified unique argmax; or an exact tie (every rival the intervals cannot rank has the same exact
// per-level sums as the winner, so its readout is the same real); or undecided at this precision.
#pragma once

#include "core/interval.hpp"
#include "core/linalg.hpp"
#include "core/readout.hpp"

#include <vector>

namespace tverify {

template <class S>
struct ScoreLevel {
  S score;     // exact
  long count = 0;
  Vector<S> value_dot_psi;  // per token, exact sums over the level's keys
};

struct LevelDecision {
  Margin margin = Margin::Undecided;
  std::size_t winner = 0;
  std::vector<std::size_t> tied;  // with Margin::Tie: the winner and every token exactly equal to it
};

template <unsigned Bits, class S>
Interval<Bits> enclose(const S& x) {
  if constexpr (requires { x.template to_interval<Bits>(); })
    return x.template to_interval<Bits>();
  else
    return Interval<Bits>(x);
}

// levels in increasing order of score (the last is the top level).
template <unsigned Bits, class S>
LevelDecision decide_levels(const std::vector<ScoreLevel<S>>& levels, const Interval<Bits>& tau) {
  using I = Interval<Bits>;
  const std::size_t tokens = levels.back().value_dot_psi.size();
  const S& top = levels.back().score;
  std::vector<I> scaled_exp;
  I denominator(0);
  for (const auto& level : levels) {
    scaled_exp.push_back(exp(tau * enclose<Bits>(S(level.score - top))));
    denominator += I(level.count) * scaled_exp.back();
  }
  Vector<I> readout(tokens, I(0));
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const I weight = scaled_exp[l] / denominator;
    for (std::size_t x = 0; x < tokens; ++x)
      if (!is_zero(levels[l].value_dot_psi[x])) readout[x] += weight * enclose<Bits>(levels[l].value_dot_psi[x]);
  }
  LevelDecision out;
  const ArgmaxReadout r = argmax_readout(readout);
  out.winner = r.winner;
  out.margin = r.margin;
  if (r.margin == Margin::Certified) return out;
  auto exactly_equal = [&](std::size_t a, std::size_t b) {
    for (const auto& level : levels)
      if (!(level.value_dot_psi[a] == level.value_dot_psi[b])) return false;
    return true;
  };
  out.tied = {r.winner};
  for (std::size_t y = 0; y < tokens; ++y) {
    if (y == r.winner || is_greater(readout[r.winner], readout[y]) == Tri::True) continue;
    if (!exactly_equal(r.winner, y)) {
      out.margin = Margin::Undecided;
      out.tied.clear();
      return out;
    }
    out.tied.push_back(y);
  }
  out.margin = Margin::Tie;
  return out;
}

// The precision ladder of the copy evaluator: 64, 256, 1024, 4096, then 16384 bits, stopping at the first decision.
// The top rungs matter when a repeated n-gram ties two tokens at the top level and only keys many levels down
// (weights e^{-tau k}, far below 2^-1024) tell them apart. tau_at<Bits>() gives tau enclosed at that precision.
// Returns the decision and the precision that made it.
template <class S, class Tau>
std::pair<LevelDecision, unsigned> decide_levels_laddered(const std::vector<ScoreLevel<S>>& levels, Tau tau_at) {
  LevelDecision d;
  unsigned bits = 0;
  auto rung = [&]<unsigned Bits>() {
    if (bits != 0 && d.margin != Margin::Undecided) return;
    d = decide_levels<Bits>(levels, tau_at.template operator()<Bits>());
    bits = Bits;
  };
  rung.template operator()<64>();
  rung.template operator()<256>();
  rung.template operator()<1024>();
  rung.template operator()<4096>();
  rung.template operator()<16384>();
  return {d, bits};
}

}  // namespace tverify
