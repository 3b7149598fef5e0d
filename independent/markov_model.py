"""Attention with Markov (Makkuva et al., arXiv 2402.04161): the single-layer transformer of Appendix A on binary
first-order Markov chains, its population loss (eq. 3) and one gradient entry at a time, in mpmath intervals.

Model (Appendix A, uni-embedding):
    u_n = x_n e + p_n;  y_n = u_n + W_O sum_i att_{n,i} W_V u_i,  att_n = softmax_i(<W_Q u_n, W_K u_i> / sqrt(d));
    z_n = y_n + W_2 ReLU(W_1 y_n);  logit_n = <a, z_n> + b (a = e when tied);  f = sigmoid(logit_n).
Loss (eq. 3), the next bit summed out with the kernel k(x_n) = P(x_{n+1} = 1 | x_n):
    L = (1/N) sum_{n <= N} sum_{x_1..x_n} P(x_1..x_n) (softplus(logit_n) - k(x_n) logit_n),
the chain started from its stationary law pi = (q, p)/(p + q). Its gradient entry is
    dL/dtheta = (1/N) sum P(x_1..x_n) (sigmoid(logit_n) - k(x_n)) dlogit_n/dtheta,
with dlogit_n/dtheta carried forward (a tangent) through the model. Every number is an interval; a parameter the run
drew at random is the whole range it was drawn from, so an enclosure holds whatever the draw.
"""
from fractions import Fraction
from itertools import product

from mpmath import iv


def exact(q):
    q = Fraction(q)
    return iv.mpf(q.numerator) / q.denominator


class Tangent:
    """A value and its derivative in one parameter direction, both intervals."""
    __slots__ = ("v", "dv")

    def __init__(self, v, dv=None):
        self.v = v
        self.dv = iv.mpf(0) if dv is None else dv

    def __add__(self, o):
        o = lift(o)
        return Tangent(self.v + o.v, self.dv + o.dv)

    __radd__ = __add__

    def __sub__(self, o):
        o = lift(o)
        return Tangent(self.v - o.v, self.dv - o.dv)

    def __mul__(self, o):
        o = lift(o)
        return Tangent(self.v * o.v, self.dv * o.v + self.v * o.dv)

    __rmul__ = __mul__

    def __truediv__(self, o):
        o = lift(o)
        return Tangent(self.v / o.v, (self.dv * o.v - self.v * o.dv) / (o.v * o.v))


def lift(x):
    return x if isinstance(x, Tangent) else Tangent(x if isinstance(x, iv.mpf) else iv.mpf(x))


def t_exp(x):
    value = iv.exp(x.v)
    return Tangent(value, value * x.dv)


def t_relu(x):
    """ReLU; where the argument's enclosure holds 0 the derivative is the hull [0, 1] of the one-sided ones."""
    if x.v.a > 0:
        return x
    if x.v.b < 0:
        return Tangent(iv.mpf(0))
    return Tangent(iv.mpf([0, x.v.b]), iv.mpf([0, 1]) * x.dv)


def matvec(M, v):
    return [sum((m * a for m, a in zip(row, v)), Tangent(iv.mpf(0))) for row in M]


def dot(u, v):
    return sum((a * b for a, b in zip(u, v)), Tangent(iv.mpf(0)))


class Point:
    """A parameter point: blocks e (d), p (N x d), W_Q, W_K, W_V (m x d), W_O (d x m), W_1 (r x d), W_2 (d x r), b,
    and a (d) when untied; entries are intervals. `direction` names one entry (block, row, column) to differentiate
    along; rows and columns are 0-based (a vector's entries use row 0)."""

    def __init__(self, blocks, tied, direction=None):
        self.tied, self.direction = tied, direction
        self.blocks = {}
        for name, value in blocks.items():
            self.blocks[name] = self._wrap(name, value)
        if tied:
            self.blocks["a"] = self.blocks["e"]

    def _wrap(self, name, value):
        def entry(r, c, x):
            seed = self.direction == (name, r, c)
            return Tangent(x, iv.mpf(1) if seed else iv.mpf(0))
        if name == "b":
            return entry(0, 0, value)
        if name in ("e", "a"):
            return [entry(0, c, x) for c, x in enumerate(value)]
        return [[entry(r, c, x) for c, x in enumerate(row)] for r, row in enumerate(value)]

    def __getitem__(self, name):
        return self.blocks[name]


def logit(point, bits, d):
    """logit_n for the prefix x_1..x_n = bits (Appendix A)."""
    e, P = point["e"], point["p"]
    u = [[e[k] * bit + P[i][k] for k in range(d)] for i, bit in enumerate(bits)]
    n = len(bits)
    query = matvec(point["W_Q"], u[-1])
    scale = iv.sqrt(iv.mpf(d))
    scores = [dot(query, matvec(point["W_K"], u[i])) / Tangent(scale) for i in range(n)]
    top = max(range(n), key=lambda i: scores[i].v.b)
    weights = [t_exp(s - scores[top]) for s in scores]
    total = sum(weights[1:], weights[0])
    mixed = [sum((w * v for w, v in zip(weights, column)), Tangent(iv.mpf(0))) / total
             for column in zip(*[matvec(point["W_V"], u[i]) for i in range(n)])]
    y = [a + b for a, b in zip(u[-1], matvec(point["W_O"], mixed))]
    hidden = [t_relu(h) for h in matvec(point["W_1"], y)]
    z = [a + b for a, b in zip(y, matvec(point["W_2"], hidden))]
    return dot(point["a"], z) + point["b"]


def sigmoid(x):
    return 1 / (1 + iv.exp(-x))


def softplus(x):
    """log(1 + e^x), written to stay accurate for large |x|."""
    if x.a > 0:
        return x + iv.log(1 + iv.exp(-x))
    return iv.log(1 + iv.exp(x))


class Chain:
    """The binary first-order Markov chain: P(1 | 0) = p, P(0 | 1) = q, started from pi = (q, p)/(p + q)."""

    def __init__(self, p, q):
        self.p, self.q = Fraction(p), Fraction(q)

    def kernel(self, bit):
        """P(x_{n+1} = 1 | x_n = bit) = x_n (1 - p - q) + p."""
        return bit * (1 - self.p - self.q) + self.p

    def probability(self, bits):
        prob = self.p / (self.p + self.q) if bits[0] else self.q / (self.p + self.q)
        for a, b in zip(bits, bits[1:]):
            k = self.kernel(a)
            prob *= k if b else 1 - k
        return prob

    def entropy_rate(self):
        """pi_0 h(p) + pi_1 h(q)."""
        def h(x):
            x = exact(x)
            return -x * iv.log(x) - (1 - x) * iv.log(1 - x)
        pi1 = exact(self.p / (self.p + self.q))
        return (1 - pi1) * h(self.p) + pi1 * h(self.q)


def prefixes(N):
    for n in range(1, N + 1):
        yield from product((0, 1), repeat=n)


def loss(point, chain, N, d):
    total = iv.mpf(0)
    for bits in prefixes(N):
        value = logit(point, bits, d).v
        total += exact(chain.probability(bits)) * (softplus(value) - exact(chain.kernel(bits[-1])) * value)
    return total / N


def gradient_entry(point, chain, N, d):
    """dL/dtheta along point.direction."""
    total = iv.mpf(0)
    for bits in prefixes(N):
        value = logit(point, bits, d)
        total += exact(chain.probability(bits)) * (sigmoid(value.v) - exact(chain.kernel(bits[-1]))) * value.dv
    return total / N
