"""A small RASP-L interpreter (Zhou et al. 2024, as the ENTP authors use it; /work/shared/papers/README.md).

Sequences are Python lists of exact numbers (int or Fraction). select(k, q, pred) builds A[i][j] = pred(k[j], q[i]);
with causal only j <= i. kqv aggregates v over the selected keys (mean, max or min), and a query that selects nothing
gets the default. The mean is exact, then truncated toward zero unless the run keeps it exact; every position where
the two differ is counted in `mean_differences`. `causal_everywhere` makes every selector causal (a decoder's
attention). `record` receives (site, a, b) for every elementwise map of two arguments that a program names.
"""
from fractions import Fraction


class Rasp:
    def __init__(self, mean="truncate", causal_everywhere=False, record=None):
        self.truncate = mean == "truncate"
        self.causal_everywhere = causal_everywhere
        self.record = record
        self.mean_differences = 0

    def indices(self, x):
        return list(range(len(x)))

    def full(self, x, c):
        return [c] * len(x)

    def tok_map(self, x, f):
        return [f(a) for a in x]

    def seq_map(self, x, y, f, site=None):
        if self.record and site:
            for a, b in zip(x, y):
                self.record(site, a, b)
        return [f(a, b) for a, b in zip(x, y)]

    def select(self, k, q, pred, causal=False):
        causal = causal or self.causal_everywhere
        return [[bool(pred(k[j], q[i])) and (not causal or j <= i) for j in range(len(k))] for i in range(len(q))]

    def sel_width(self, matrix):
        return [sum(row) for row in matrix]

    def kqv(self, k, q, v, pred, reduction="mean", default=0, causal=False):
        matrix = self.select(k, q, pred, causal)
        out = []
        for row in matrix:
            chosen = [v[j] for j, selected in enumerate(row) if selected]
            if not chosen:
                out.append(default)
            elif reduction == "max":
                out.append(max(chosen))
            elif reduction == "min":
                out.append(min(chosen))
            else:
                out.append(self._mean(chosen))
        return out

    def _mean(self, values):
        exact = Fraction(sum(values), len(values))
        if exact.denominator != 1:
            self.mean_differences += 1
        if not self.truncate:
            return exact.numerator if exact.denominator == 1 else exact
        whole = abs(exact.numerator) // exact.denominator
        return whole if exact >= 0 else -whole

    def map2(self, x, y, f, site=None):
        """An elementwise operator of two sequences (or a sequence and a constant)."""
        y = y if isinstance(y, list) else [y] * len(x)
        x = x if isinstance(x, list) else [x] * len(y)
        return self.seq_map(x, y, f, site)


def equals(a, b):
    return a == b


def true(a, b):
    return True
