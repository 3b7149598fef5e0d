// The attention of one query grouped by score level. Keys with the same exact <q, k> and |k|^2 have the same logit
// c^2 <q, k> / sqrt(|q|^2 |k|^2), so the softmax readout o = sum_s softmax_s(logit_s) v_s only needs, per level, how
// many keys it holds and the exact sum of their values:
//   o = sum_g e^{z_g - z_0} V_g / sum_g n_g e^{z_g - z_0}      (n_g keys and value sum V_g at level g)
// The exact evaluator (CatLayer) adds its keys one by one; the fast path (constructions/cat/fast/cat_fast.hpp) adds
// whole groups of identical windows at once. Both decide the output token with `decide_levels`, so they agree by
// construction once their levels agree (the differential tests compare the decisions).
#pragma once

#include "constructions/cat/embedding.hpp"
#include "core/precision_ladder.hpp"
#include "core/readout.hpp"

#include <map>
#include <optional>

namespace tverify::cat {

struct Decoded {
  std::optional<int> token;  // the certified nearest embedding, if decided
  Margin margin = Margin::Undecided;
  unsigned bits = 0;
};

struct ScoreLevel {
  BigInt keys = 0;        // n_g: how many keys sit at this level
  ExactVector value_sum;  // V_g: the exact sum of their value vectors
};

class AttentionLevels {
 public:
  AttentionLevels(Exact query_norm2, std::size_t dim) : query_norm2_(std::move(query_norm2)), dim_(dim) {}
  // Adds `count` keys with these exact <q, k> and |k|^2 whose values sum to count * value.
  void add(const Exact& dot, const Exact& key_norm2, const BigInt& count, const ExactVector& value);
  bool empty() const { return levels_.empty(); }
  const Exact& query_norm2() const { return query_norm2_; }
  // (<q, k>, |k|^2) -> level, ordered (deterministic enclosures); looked up without copying the key.
  struct KeyLess {
    using is_transparent = void;
    using View = std::pair<const Exact&, const Exact&>;
    static View view(const std::pair<Exact, Exact>& k) { return {k.first, k.second}; }
    static View view(const View& k) { return k; }
    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
      const View x = view(a), y = view(b);
      return x.first < y.first || (x.first == y.first && x.second < y.second);
    }
  };
  using Levels = std::map<std::pair<Exact, Exact>, ScoreLevel, KeyLess>;
  const Levels& levels() const { return levels_; }

 private:
  Exact query_norm2_;
  std::size_t dim_;
  Levels levels_;
};

// The rungs of the ladder the CAT readout climbs: what the last one cannot decide is an exact tie of readouts, which
// is decided exactly (levels.cpp).
inline constexpr Rungs<64, 512> readout_rungs{};

// The nearest embedding to o (argmax of <o, e(v)> over unit embeddings), certified in MPFI up readout_rungs; an
// exact tie between tokens (decided exactly, see levels.cpp) is reported as Margin::Tie. Nothing to attend to: {}.
Decoded decide_levels(const AttentionLevels& levels, const TokenEmbedding& embedding, const Exact& c_squared);

}  // namespace tverify::cat
