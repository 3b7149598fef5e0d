"""The printed points of Attention with Markov evaluated exactly, with the logs as symbols.

Numbers are polynomials over Q in l1 = log(p/(1-p)), l2 = log((1-q)/q), l3 = log(p/q), s (eq. 7's entry of e) and
w (eq. 10's w*), reduced by the relations the points define: d s^2 = l2 - l1 (eq. 6, ||e||^2 = log((1-p)(1-q)/(pq)))
and c w^2 = 2 (1 - (l2 - l1)/d) (eq. 10; c = d^2 as printed, d r corrected, erratum M1). Two equal polynomials are
equal reals whatever the logs are, so logit_n = l1 or l2 as polynomials proves f = the Markov kernel exactly. Blocks
the paper leaves arbitrary are never needed: at every printed point W_O = 0 and, where W_1 is arbitrary, W_2 = 0, so
the attention and feed-forward terms vanish identically and are not evaluated.
"""
from fractions import Fraction

SYMBOLS = ("s", "w", "l1", "l2", "l3")


class Poly:
    """sum of coefficient * s^i w^j l1^k l2^m l3^n, stored as {exponents: Fraction}, kept reduced."""

    def __init__(self, terms=None, relations=None):
        self.relations = relations
        self.terms = {k: Fraction(v) for k, v in (terms or {}).items() if v != 0}

    @classmethod
    def constant(cls, c, relations):
        return cls({(0,) * len(SYMBOLS): c}, relations)

    @classmethod
    def symbol(cls, name, relations):
        exponents = tuple(int(s == name) for s in SYMBOLS)
        return cls({exponents: 1}, relations)

    def lift(self, other):
        return other if isinstance(other, Poly) else Poly.constant(other, self.relations)

    def __add__(self, other):
        other = self.lift(other)
        terms = dict(self.terms)
        for k, v in other.terms.items():
            terms[k] = terms.get(k, 0) + v
        return Poly(terms, self.relations)

    __radd__ = __add__

    def __neg__(self):
        return Poly({k: -v for k, v in self.terms.items()}, self.relations)

    def __sub__(self, other):
        return self + (-self.lift(other))

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, other):
        other = self.lift(other)
        result = Poly({}, self.relations)
        for k1, v1 in self.terms.items():
            for k2, v2 in other.terms.items():
                result = result + self.relations.reduce(tuple(a + b for a, b in zip(k1, k2)), v1 * v2)
        return result

    __rmul__ = __mul__

    def __eq__(self, other):
        return not (self - other).terms

    def __hash__(self):
        return hash(frozenset(self.terms.items()))

    def sign(self):
        """-1, 0 or 1 when the polynomial is 0 or one monomial in the positive symbols; None otherwise."""
        if not self.terms:
            return 0
        if len(self.terms) != 1:
            return None
        (exponents, coefficient), = self.terms.items()
        if any(e and not self.relations.positive(name) for name, e in zip(SYMBOLS, exponents)):
            return None
        return 1 if coefficient > 0 else -1

    def __repr__(self):
        if not self.terms:
            return "0"
        parts = []
        for k, v in sorted(self.terms.items()):
            monomial = " ".join(f"{n}^{e}" if e > 1 else n for n, e in zip(SYMBOLS, k) if e)
            parts.append(f"{v}" + (f" {monomial}" if monomial else ""))
        return " + ".join(parts)


class Relations:
    """s^2 = (l2 - l1)/d and w^2 = (2/c)(1 - (l2 - l1)/d); which of s, w are known positive."""

    def __init__(self, d, c, positive):
        self.d, self.c, self.positive_symbols = d, c, set(positive)

    def positive(self, name):
        return name in self.positive_symbols

    def reduce(self, exponents, coefficient):
        exponents = list(exponents)
        result = Poly({}, self)
        for index, square in ((0, self._s_squared), (1, self._w_squared)):
            if exponents[index] >= 2:
                exponents[index] -= 2
                return square() * Poly({tuple(exponents): coefficient}, self)
        return result + Poly({tuple(exponents): coefficient}, self)

    def _s_squared(self):
        return (Poly.symbol("l2", self) - Poly.symbol("l1", self)) * Fraction(1, self.d)

    def _w_squared(self):
        return (1 - (Poly.symbol("l2", self) - Poly.symbol("l1", self)) * Fraction(1, self.d)) * Fraction(2, self.c)


def relu(x):
    sign = x.sign()
    if sign is None:
        raise ValueError(f"the sign of {x} is not decided")
    return x if sign > 0 else Poly({}, x.relations)


def logit(point, x, n):
    """logit_n at x_n = x for a point with W_O = 0 (the attention term vanishes): y_n = x e + p_n, then
    z_n = y_n + W_2 ReLU(W_1 y_n) (skipped when W_2 = 0), logit_n = <a, z_n> + b."""
    if all(a == 0 for a in point["a"]):
        return point["b"]  # <0, z_n> = 0 whatever z_n (eq. 11 leaves p_n arbitrary)
    y = [x * e + p for e, p in zip(point["e"], point["p"][n - 1])]
    if point["W_2"] is None:
        z = y
    else:
        hidden = [relu(sum((c * v for c, v in zip(row, y)), Poly({}, y[0].relations))) for row in point["W_1"]]
        z = [yk + sum((c * h for c, h in zip(row, hidden)), Poly({}, y[0].relations))
             for yk, row in zip(y, point["W_2"])]
    return sum((a * v for a, v in zip(point["a"], z)), Poly({}, z[0].relations)) + point["b"]


def printed_point(kind, d, r, N, variant, p_plus_q_above_one):
    """eq. (7), (10) or (11) with symbols; W_O = 0 always (not stored); W_2 None where it is 0 and W_1 arbitrary."""
    c = d * d if variant == "paper" else d * r
    positive = {"w"} if p_plus_q_above_one else {"s"}
    R = Relations(d, c, positive)
    const = lambda v: Poly.constant(v, R)  # noqa: E731
    sym = lambda name: Poly.symbol(name, R)  # noqa: E731
    if kind == "eq. 7":
        e = [sym("s")] * d
        return {"e": e, "a": e, "p": [[const(0)] * d] * N, "W_1": None, "W_2": None, "b": sym("l1")}
    if kind == "eq. 10":
        e = [const(1)] * d
        w = sym("w")
        return {"e": e, "a": e, "p": [[const(Fraction(-1, 2))] * d] * N, "W_1": [[w] * d for _ in range(r)],
                "W_2": [[-w] * r for _ in range(d)], "b": sym("l1") + Fraction(d, 2)}
    e = [const(0)] * d
    return {"e": e, "a": e, "p": None, "W_1": None, "W_2": None, "b": sym("l3")}
