"""The CAT layer of Theorem 1 / Corollary 1 (Li, Zhang, Huang, Oymak, arXiv 2407.05591), as docs/cat.md reconstructs
it (the paper's text lost its formulas; cat-notes.md): causal filter with zero padding, cosine logits c^2 cos(q, k),
causal softmax, nearest-embedding decoding.

Convolutions, inner products and cos^2 are exact Fractions. Keys whose logits are the same exact number form one level
(cos = sign * sqrt(cos^2), so a level is a pair (sign, cos^2)); two tokens whose decoding scores are the same formal sum
over levels are tied exactly; any other comparison is decided by an mpmath interval enclosure that excludes 0.
"""
from fractions import Fraction

from mpmath import iv

from iv_sign import certified_sign

UNDECIDED = "undecided"


def dot(u, v):
    return sum(a * b for a, b in zip(u, v))


class CatLayer:
    def __init__(self, embeddings, filt, variant, c):
        """embeddings: V unit vectors (Fractions); filt: F_0..F_{N-1}, F_0 on the newest token; c: a Fraction."""
        self.e, self.F, self.variant, self.c = embeddings, filt, variant, c
        self.N, self.dim = len(filt), len(embeddings[0])
        self.key_delay = variant in ("key_delay", "key_delay_full", "ar")
        self.full_windows_only = variant.endswith("_full")

    def conv(self, z, t):
        """(F * X)_t = sum_i F_i x_{t-i}, 1-based t, x_s = 0 for s <= 0."""
        out = [Fraction(0)] * self.dim
        for i, f in enumerate(self.F):
            if t - i >= 1:
                out = [a + f * b for a, b in zip(out, self.e[z[t - i - 1]])]
        return out

    def key(self, z, s):
        return self.conv(z, s - 1) if self.key_delay else self.conv(z, s)

    def value(self, z, s):
        if self.key_delay:
            return self.e[z[s - 1]]
        return self.e[z[s]] if s < len(z) else [Fraction(0)] * self.dim

    def key_in_softmax(self, s):
        """The _full variants leave out keys whose window reaches before the first token (errata C1)."""
        if not self.full_windows_only:
            return True
        first_token_of_window = (s - 1 if self.key_delay else s) - self.N + 1
        return first_token_of_window >= 1

    def levels(self, z, t):
        """{(sign, cos^2): summed value vector} over the keys s <= t of the query at t."""
        q = self.conv(z, t)
        qq = dot(q, q)
        levels = {}
        for s in range(1, t + 1):
            if not self.key_in_softmax(s):
                continue
            k = self.key(z, s)
            kk, qk = dot(k, k), dot(q, k)
            level = (0, Fraction(0)) if qq == 0 or kk == 0 or qk == 0 else ((qk > 0) - (qk < 0), qk * qk / (qq * kk))
            total = levels.get(level, [Fraction(0)] * self.dim)
            levels[level] = [a + b for a, b in zip(total, self.value(z, s))]
        return levels

    def decode(self, z, t):
        """('token', a), ('tie', tokens) or (UNDECIDED, None): argmax_a <o_t, e(a)>. The softmax denominator is
        positive and shared, so the numerators sum_level exp(c^2 cos) <value sum, e(a)> are compared."""
        levels = self.levels(z, t)
        scores = [{level: dot(v, e) for level, v in levels.items() if dot(v, e) != 0} for e in self.e]
        count = len(scores)
        compare = [[0] * count for _ in range(count)]
        for a in range(count):
            for b in range(a + 1, count):
                sign = self.compare(scores[a], scores[b])
                if sign is None:
                    return UNDECIDED, None
                compare[a][b], compare[b][a] = sign, -sign
        top = [a for a in range(count) if all(compare[a][b] >= 0 for b in range(count))]
        return ("token", top[0]) if len(top) == 1 else ("tie", top)

    def compare(self, first, second):
        difference = dict(first)
        for level, coefficient in second.items():
            difference[level] = difference.get(level, 0) - coefficient
        difference = {level: c for level, c in difference.items() if c != 0}
        if not difference:
            return 0

        def total():
            c2 = iv.mpf(self.c.numerator ** 2) / self.c.denominator ** 2
            out = iv.mpf(0)
            for (sign, cos2), coefficient in difference.items():
                cos = sign * iv.sqrt(iv.mpf(cos2.numerator) / cos2.denominator)
                out += iv.mpf(coefficient.numerator) / coefficient.denominator * iv.exp(c2 * cos)
            return out
        return certified_sign(total)


def ngram_occurrences(z, t, N):
    """Ends i, N <= i <= t - 1, of the earlier occurrences of the N-gram ending at t."""
    query = z[t - N:t]
    return [i for i in range(N, t) if z[i - N:i] == query]


def signature(embeddings, filt, gram):
    """s(g) = sum_j F_j e(g_{N-j}): F_0 on the newest token."""
    dim = len(embeddings[0])
    out = [Fraction(0)] * dim
    for j, f in enumerate(filt):
        out = [a + f * b for a, b in zip(out, embeddings[gram[len(gram) - 1 - j]])]
    return out
