// The certified readout of one attention step when the scores are exact and grouped by level (proof of Theorem 2.3
// of Repeat After Me; shared by the exact copy evaluator and the fast integer path, so both decide identically):
//   keys with equal score z_l get equal softmax weight w_l = E_l / sum_m c_m E_m, E_l = exp(tau (z_l - z_top)),
//   and the readout of token x is r_x = sum_l w_l V_{l,x}, V_{l,x} = the exact sum over the level's keys of
//   T^value_j . Psi(x). One interval exponential per level.
// Decision: a certified unique argmax; or an exact tie (every rival the intervals cannot rank has the same exact
// per-level sums as the winner, so its readout is the same real); or undecided at this precision.
#pragma once

#include "core/interval.hpp"
#include "core/precision_ladder.hpp"
#include "core/linalg.hpp"
#include "core/readout.hpp"

#include <optional>
#include <vector>

namespace tverify {

template <class S>
struct ScoreLevel {
  S score;  // exact
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

// The lexicographic decision. readout(a) - readout(b) = (1/Z) sum_l w_l Delta_l, Delta_l = V_{l,a} - V_{l,b}, with
// the weights w_l = exp(tau (z_l - z_top)) falling down the levels. At the first level l from the top where
// Delta_l != 0, every level below weighs at most w_{l-1}, so the sign is Delta_l's as soon as
//   |Delta_l| > exp(-tau (z_l - z_{l-1})) * sum_{m < l} |Delta_m|,
// a comparison decided at 64 bits however small the weights are (MPFR's exponent range holds e^{-10^5}; no sum of
// 1 and e^{-10^5} is ever formed). Delta_l = 0 at every level is an exact tie. The fast integer path decides its
// steps the same way (constructions/copy/fast: decide_lexicographically).
template <unsigned Bits, class S>
LevelDecision decide_levels_lexicographically(const std::vector<ScoreLevel<S>>& levels, const Interval<Bits>& tau) {
  using I = Interval<Bits>;
  auto magnitude = [](const S& x) { return sign_of(x) == Sign::Negative ? S(-x) : x; };
  // sign of readout(a) - readout(b): +1, -1, 0 (exactly equal), or nullopt (not decided here)
  auto compare = [&](std::size_t a, std::size_t b) -> std::optional<int> {
    for (std::size_t l = levels.size(); l-- > 0;) {
      const S delta = levels[l].value_dot_psi[a] - levels[l].value_dot_psi[b];
      if (is_zero(delta)) continue;
      const int sign = sign_of(delta) == Sign::Positive ? 1 : -1;
      S rest(0);
      for (std::size_t m = 0; m < l; ++m) rest += magnitude(S(levels[m].value_dot_psi[a] - levels[m].value_dot_psi[b]));
      if (is_zero(rest)) return sign;
      const I next_weight = exp(tau * enclose<Bits>(S(levels[l - 1].score - levels[l].score)));
      if (is_greater(enclose<Bits>(magnitude(delta)), enclose<Bits>(rest) * next_weight) == Tri::True) return sign;
      return std::nullopt;
    }
    return 0;
  };
  LevelDecision out;
  const std::size_t tokens = levels.back().value_dot_psi.size();
  for (std::size_t x = 1; x < tokens; ++x) {
    const auto c = compare(x, out.winner);
    if (!c) return out;  // Undecided
    if (*c > 0) out.winner = x;
  }
  out.margin = Margin::Certified;
  for (std::size_t y = 0; y < tokens; ++y) {
    if (y == out.winner) continue;
    const auto c = compare(out.winner, y);
    if (!c) {
      out.margin = Margin::Undecided;
      out.tied.clear();
      return out;
    }
    if (*c == 0) {
      if (out.tied.empty()) out.tied.push_back(out.winner);
      out.tied.push_back(y);
      out.margin = Margin::Tie;
    }
  }
  return out;
}

// The copy evaluator's decision up the standard ladder (core/precision_ladder.hpp): the interval readout at 64 bits,
// then (still at 64 bits) the lexicographic decision, then the readout at 256, 1024, 4096 and 16384 bits. The top
// rungs matter when a repeated n-gram ties two tokens at the top level and only keys many levels down tell them apart
// with sums the lexicographic bound cannot separate. tau_at<Bits>() gives tau enclosed at that precision. Returns the
// decision and the precision that made it (the ceiling when none did).
template <class S, class Tau>
std::pair<LevelDecision, unsigned> decide_levels_laddered(const std::vector<ScoreLevel<S>>& levels, Tau tau_at) {
  const auto climbed = climb(
      standard_rungs,
      [&]<unsigned Bits>() {
        LevelDecision d = decide_levels<Bits>(levels, tau_at.template operator()<Bits>());
        if (Bits == 64 && d.margin == Margin::Undecided)
          d = decide_levels_lexicographically<64>(levels, tau_at.template operator()<64>());
        return d;
      },
      [](const LevelDecision& d) { return d.margin != Margin::Undecided; });
  return {climbed.result, climbed.bits};
}

}  // namespace tverify
