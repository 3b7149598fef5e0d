#include "constructions/cat/signatures.hpp"

namespace tverify::cat {

ExactCosine ExactCosine::of(const ExactVector& a, const ExactVector& b) {
  const Exact d = dot(a, b);
  return {d > 0 ? 1 : (d < 0 ? -1 : 0), d * d / (dot(a, a) * dot(b, b))};
}

bool ExactCosine::operator<(const ExactCosine& o) const {
  const Exact mine = sign * square, theirs = o.sign * o.square;  // signed squares order cosines the same way
  return mine < theirs;
}

Interval<128> ExactCosine::enclosure() const {
  const Interval<128> magnitude = sqrt(Interval<128>(square));
  return sign < 0 ? -magnitude : magnitude;
}

// For a positive cosine, 1 - cos = (1 - cos^2) / (1 + cos) with 1 - cos^2 exact: the enclosure stays positive however
// close cos is to 1 (1 - enclosure(cos) would not, once cos is within 2^-128 of 1).
Interval<128> SignatureReport::gamma() const {
  const ExactCosine& c = max_cosine.value();
  if (c.sign <= 0) return Interval<128>(1) - c.enclosure();
  return Interval<128>(Exact(1 - c.square)) / (Interval<128>(1) + c.enclosure());
}

ExactVector signature(const Filter& filter, const TokenEmbedding& e, const Tokens& gram) {
  ExactVector s(e.dim(), Exact(0));
  for (std::size_t j = 0; j < filter.size() && j < gram.size(); ++j) {
    const ExactVector& x = e.vectors.at(static_cast<std::size_t>(gram[gram.size() - 1 - j]));
    for (std::size_t d = 0; d < s.size(); ++d) s[d] += filter[j] * x[d];
  }
  return s;
}

std::vector<Tokens> all_grams(int vocabulary, int n) {
  std::vector<Tokens> out;
  Tokens g(static_cast<std::size_t>(n), 0);
  while (true) {
    out.push_back(g);
    int k = n - 1;
    while (k >= 0 && g[static_cast<std::size_t>(k)] == vocabulary - 1) g[static_cast<std::size_t>(k--)] = 0;
    if (k < 0) break;
    ++g[static_cast<std::size_t>(k)];
  }
  return out;
}

namespace {
bool is_zero(const ExactVector& v) {
  for (const auto& x : v)
    if (x != 0) return false;
  return true;
}
}  // namespace

SignatureReport analyse_signatures(const Filter& filter, const TokenEmbedding& e, int n) {
  SignatureReport r;
  const std::vector<Tokens> grams = all_grams(static_cast<int>(e.size()), n);
  r.ngrams = grams.size();
  std::vector<ExactVector> sigs;
  for (const auto& g : grams) {
    sigs.push_back(signature(filter, e, g));
    if (is_zero(sigs.back())) r.zero_signatures.push_back(g);
  }
  for (std::size_t a = 0; a < grams.size(); ++a)
    for (std::size_t b = a + 1; b < grams.size(); ++b) {
      if (is_zero(sigs[a]) || is_zero(sigs[b])) continue;
      const ExactCosine c = ExactCosine::of(sigs[a], sigs[b]);
      if (c.is_one() && !r.collision) r.collision = std::make_pair(grams[a], grams[b]);
      if (!r.max_cosine || *r.max_cosine < c) {
        r.max_cosine = c;
        r.closest = std::make_pair(grams[a], grams[b]);
      }
    }
  return r;
}

std::optional<std::pair<Tokens, Tokens>> padded_collision(const Filter& filter, const TokenEmbedding& e, int n) {
  const int vocabulary = static_cast<int>(e.size());
  for (int m = 1; m < n; ++m)
    for (const auto& partial : all_grams(vocabulary, m)) {
      const ExactVector p = signature(filter, e, partial);  // only F_0..F_{m-1} reach the sequence
      if (is_zero(p)) continue;
      for (const auto& full : all_grams(vocabulary, n)) {
        const ExactVector s = signature(filter, e, full);
        if (!is_zero(s) && ExactCosine::of(p, s).is_one()) return std::make_pair(full, partial);
      }
    }
  return std::nullopt;
}

}  // namespace tverify::cat
