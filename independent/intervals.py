"""Closed real intervals with ends rounded outward, at a chosen precision, for the irrational ops of an ONNX graph.

The ends are mpmath's raw binary floats (`mpmath.libmp`), each operation rounds its lower end down ('f') and its
upper end up ('c'), so an Interval always contains the real value of the expression it stands for. mpmath's `exp`,
`log`, `sqrt` and `pi` with a directed rounding mode are taken on trust (docs/trust.md); `erf`, `tanh` and the
logistic function are built here from them, with the remainder of each series bounded explicitly.

A comparison of intervals either is decided (the intervals are disjoint, or both are the same point) or raises
Undecided: an overlap is never rounded to an answer. Exact numbers (Fractions, ints) mix with Intervals and are
entered by outward rounding at the current precision.
"""
from contextlib import contextmanager
from fractions import Fraction

from mpmath import libmp as L

FLOOR, CEILING = "f", "c"
_precision = [64]


class Undecided(Exception):
    """A comparison the current precision cannot decide (two overlapping intervals)."""


@contextmanager
def precision(bits):
    """Compute every Interval operation inside the block at `bits` bits."""
    saved = _precision[0]
    _precision[0] = bits
    try:
        yield
    finally:
        _precision[0] = saved


def bits():
    return _precision[0]


def _from_exact(q, rounding):
    if isinstance(q, bool):
        q = int(q)
    if isinstance(q, int):
        return L.from_int(q, bits(), rounding)
    return L.from_rational(q.numerator, q.denominator, bits(), rounding)


def to_fraction(end):
    """The exact rational value of a finite raw mpf."""
    sign, mantissa, exponent, _ = end
    value = Fraction(mantissa) * (Fraction(2) ** exponent)
    return -value if sign else value


_ENTERED = {}  # (exact number, precision) -> its ends: the model's weights are entered once


class Interval:
    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    @staticmethod
    def of(x):
        """x as an Interval: an exact number rounded outward; an Interval as it is."""
        if isinstance(x, Interval):
            return x
        if isinstance(x, float):
            raise ValueError(f"{x} is not finite; it has no interval")
        key = (x, _precision[0])
        ends = _ENTERED.get(key)
        if ends is None:
            if len(_ENTERED) > 1_000_000:
                _ENTERED.clear()
            ends = _ENTERED[key] = (_from_exact(x, FLOOR), _from_exact(x, CEILING))
        return Interval(*ends)

    def is_point(self):
        return self.lo == self.hi

    def __repr__(self):
        return f"[{L.to_str(self.lo, 20)}, {L.to_str(self.hi, 20)}]"

    # Arithmetic, each end rounded outward.
    def __add__(self, other):
        if not _mixes(other):
            return NotImplemented
        other = Interval.of(other)
        p = bits()
        return Interval(L.mpf_add(self.lo, other.lo, p, FLOOR), L.mpf_add(self.hi, other.hi, p, CEILING))

    __radd__ = __add__

    def __neg__(self):
        return Interval(L.mpf_neg(self.hi), L.mpf_neg(self.lo))

    def __sub__(self, other):
        if not _mixes(other):
            return NotImplemented
        return self + (-Interval.of(other))

    def __rsub__(self, other):
        if not _mixes(other):
            return NotImplemented
        return Interval.of(other) + (-self)

    def __mul__(self, other):
        if not _mixes(other):
            return NotImplemented
        other = Interval.of(other)
        p = bits()
        a, b = self, other
        if L.mpf_sign(b.lo) >= 0 and L.mpf_sign(a.lo) < 0 <= L.mpf_sign(a.hi) or L.mpf_sign(b.hi) < 0 <= L.mpf_sign(a.lo):
            a, b = b, a  # the case table below reads a >= 0, a <= 0 or a around 0 first
        if L.mpf_sign(a.lo) >= 0:  # a >= 0
            if L.mpf_sign(b.lo) >= 0:
                return Interval(L.mpf_mul(a.lo, b.lo, p, FLOOR), L.mpf_mul(a.hi, b.hi, p, CEILING))
            if L.mpf_sign(b.hi) <= 0:
                return Interval(L.mpf_mul(a.hi, b.lo, p, FLOOR), L.mpf_mul(a.lo, b.hi, p, CEILING))
            return Interval(L.mpf_mul(a.hi, b.lo, p, FLOOR), L.mpf_mul(a.hi, b.hi, p, CEILING))
        if L.mpf_sign(a.hi) <= 0:  # a <= 0
            if L.mpf_sign(b.lo) >= 0:
                return Interval(L.mpf_mul(a.lo, b.hi, p, FLOOR), L.mpf_mul(a.hi, b.lo, p, CEILING))
            if L.mpf_sign(b.hi) <= 0:
                return Interval(L.mpf_mul(a.hi, b.hi, p, FLOOR), L.mpf_mul(a.lo, b.lo, p, CEILING))
            return Interval(L.mpf_mul(a.lo, b.hi, p, FLOOR), L.mpf_mul(a.lo, b.lo, p, CEILING))
        ends = [(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]  # both around 0
        return Interval(_least([L.mpf_mul(x, y, p, FLOOR) for x, y in ends]),
                        _greatest([L.mpf_mul(x, y, p, CEILING) for x, y in ends]))

    __rmul__ = __mul__

    def reciprocal(self):
        if not (L.mpf_gt(self.lo, L.fzero) or L.mpf_lt(self.hi, L.fzero)):
            raise Undecided("a divisor whose interval holds 0")
        p = bits()
        return Interval(L.mpf_div(L.fone, self.hi, p, FLOOR), L.mpf_div(L.fone, self.lo, p, CEILING))

    def __truediv__(self, other):
        if not _mixes(other):
            return NotImplemented
        other = Interval.of(other)
        if other.is_point() and not L.mpf_eq(other.lo, L.fzero):  # a point divisor: one rounding per end
            p = bits()
            a, b = (self.lo, self.hi) if L.mpf_gt(other.lo, L.fzero) else (self.hi, self.lo)
            return Interval(L.mpf_div(a, other.lo, p, FLOOR), L.mpf_div(b, other.lo, p, CEILING))
        return self * other.reciprocal()

    def __rtruediv__(self, other):
        if not _mixes(other):
            return NotImplemented
        return Interval.of(other) / self

    def __abs__(self):
        if L.mpf_ge(self.lo, L.fzero):
            return self
        if L.mpf_le(self.hi, L.fzero):
            return -self
        return Interval(L.fzero, _greatest([L.mpf_neg(self.lo), self.hi]))

    def __pow__(self, n):
        """An integer power, tight for even powers of an interval around 0."""
        if not isinstance(n, int):
            return NotImplemented
        if n < 0:
            return (self ** -n).reciprocal()
        result = Interval.of(1)
        base = abs(self) if n % 2 == 0 else self
        for _ in range(n):
            result = result * base
        return result

    # Three-valued comparisons: True, False, or Undecided raised.
    def _order(self, other):
        """-1 (self entirely below other), 1 (above), 0 (the same point); Undecided otherwise. An infinity (a mask
        entry) lies beyond every interval."""
        if isinstance(other, float):
            if other != other or other not in (float("inf"), float("-inf")):
                raise ValueError(f"{other} is compared with an interval")
            return -1 if other > 0 else 1
        other = Interval.of(other)
        if L.mpf_lt(self.hi, other.lo):
            return -1
        if L.mpf_gt(self.lo, other.hi):
            return 1
        if self.is_point() and other.is_point() and L.mpf_eq(self.lo, other.lo):
            return 0
        raise Undecided("two overlapping intervals")

    def __lt__(self, other):
        return self._order(other) < 0 if _compares(other) else NotImplemented

    def __le__(self, other):
        return self._order(other) <= 0 if _compares(other) else NotImplemented

    def __gt__(self, other):
        return self._order(other) > 0 if _compares(other) else NotImplemented

    def __ge__(self, other):
        return self._order(other) >= 0 if _compares(other) else NotImplemented

    def __eq__(self, other):
        return self._order(other) == 0 if _compares(other) else NotImplemented

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None


def _mixes(x):
    return isinstance(x, (Interval, Fraction, int))


def _compares(x):
    return _mixes(x) or isinstance(x, float)


def _extreme(ends, beats):
    out = ends[0]
    for e in ends[1:]:
        if beats(e, out):
            out = e
    return out


def _least(ends):
    return _extreme(ends, L.mpf_lt)


def _greatest(ends):
    return _extreme(ends, L.mpf_gt)


def hull_max(a, b):
    """max(a, b) over intervals: [max of the lower ends, max of the upper ends]."""
    a, b = Interval.of(a), Interval.of(b)
    return Interval(_greatest([a.lo, b.lo]), _greatest([a.hi, b.hi]))


def hull_min(a, b):
    a, b = Interval.of(a), Interval.of(b)
    return Interval(_least([a.lo, b.lo]), _least([a.hi, b.hi]))


def hull(values):
    """The smallest interval holding every value (exact numbers or Intervals)."""
    values = [Interval.of(v) for v in values]
    return Interval(_least([v.lo for v in values]), _greatest([v.hi for v in values]))


# Monotone functions: an enclosure of f over [lo, hi] is [f(lo) rounded down, f(hi) rounded up] for an increasing f.
def exp(x):
    x = Interval.of(x)
    p = bits()
    return Interval(L.mpf_exp(x.lo, p, FLOOR), L.mpf_exp(x.hi, p, CEILING))


def log(x):
    x = Interval.of(x)
    if not L.mpf_gt(x.lo, L.fzero):
        raise Undecided("a logarithm of an interval reaching 0")
    p = bits()
    return Interval(L.mpf_log(x.lo, p, FLOOR), L.mpf_log(x.hi, p, CEILING))


def sqrt(x):
    x = Interval.of(x)
    if L.mpf_lt(x.lo, L.fzero):
        raise Undecided("a square root of an interval reaching below 0")
    p = bits()
    return Interval(L.mpf_sqrt(x.lo, p, FLOOR), L.mpf_sqrt(x.hi, p, CEILING))


def _point(end):
    return Interval(end, end)


def _increasing(point_enclosure, x):
    """An increasing function over x, from enclosures of its values at x's two ends (computed 20 bits finer)."""
    x = Interval.of(x)
    with precision(bits() + 20):
        low, high = point_enclosure(x.lo), point_enclosure(x.hi)
    return Interval(low.lo, high.hi)


def sigmoid(x):
    """1 / (1 + e^-x), increasing."""
    return _increasing(lambda e: 1 / (1 + exp(-_point(e))), x)


def tanh(x):
    """tanh(x) = 1 - 2 / (e^{2x} + 1), increasing."""
    return _increasing(lambda e: 1 - 2 / (exp(2 * _point(e)) + 1), x)


def _erf_nonnegative(end):
    """An enclosure of erf at a point e >= 0.

    erf(e) = (2 / sqrt(pi)) e^{-e^2} T(e), T(e) = sum_n t_n, t_0 = e, t_{n+1} = t_n 2e^2 / (2n + 3) (Abramowitz and
    Stegun 7.1.6): every term is positive, so a lower bound of T rounds every step down and an upper bound every step
    up, and there is no cancellation. Once the ratio 2e^2 / (2n + 3) is at most 1/2, the tail after t_n is at most t_n
    (a geometric series of ratio at most 1/2). Where e^2 exceeds the precision p, erfc(e) < e^{-e^2} / (e sqrt(pi))
    (A&S 7.1.13) puts erf(e) in [1 - that bound, 1].
    """
    if L.mpf_eq(end, L.fzero):
        return Interval.of(0)
    p = bits()
    root_pi = sqrt(Interval(L.mpf_pi(p, FLOOR), L.mpf_pi(p, CEILING)))
    square = Interval(L.mpf_mul(end, end, p, FLOOR), L.mpf_mul(end, end, p, CEILING))
    if L.mpf_gt(square.lo, L.from_int(p)):
        bound = exp(-square) / (_point(end) * root_pi)
        return Interval(L.mpf_sub(L.fone, bound.hi, p, FLOOR), L.fone)
    total = _erf_series(to_fraction(end), p)
    value = 2 * exp(-square) * total / root_pi
    return Interval(value.lo, _least([value.hi, L.fone]))


def _erf_series(x, p):
    """An Interval holding T(x) = sum_n t_n (above) for a rational x > 0: the sum in fixed point with w fraction bits
    (p + 30 below x's leading bit), every term of the lower sum rounded down and of the upper sum rounded up, the tail bounded by the
    last term once the ratio of the terms is at most 1/2."""
    w = p + 30 + max(0, x.denominator.bit_length() - x.numerator.bit_length())  # p + 30 bits below x's leading one
    scale = 1 << w
    term_lo, term_hi = _floor(x * scale), _ceiling(x * scale)
    ratio_lo, ratio_hi = _floor(2 * x * x * scale), _ceiling(2 * x * x * scale)
    total_lo, total_hi, n = term_lo, term_hi, 0
    while True:
        divisor = (2 * n + 3) << w
        term_lo = term_lo * ratio_lo // divisor
        term_hi = -(-(term_hi * ratio_hi) // divisor)
        total_lo += term_lo
        total_hi += term_hi
        n += 1
        if 2 * ratio_hi <= (2 * n + 3) * scale and ((term_hi << (p + 4)) < total_lo or term_hi <= 1):
            break
    total_hi += term_hi  # the tail after the last term is at most that term
    return Interval(L.from_man_exp(total_lo, -w, p, FLOOR), L.from_man_exp(total_hi, -w, p, CEILING))


def _floor(q):
    return q.numerator // q.denominator


def _ceiling(q):
    return -(-q.numerator // q.denominator)


def _erf_point(end):
    if L.mpf_lt(end, L.fzero):
        return -_erf_nonnegative(L.mpf_neg(end))
    return _erf_nonnegative(end)


def erf(x):
    return _increasing(_erf_point, x)


def mid_float(x):
    """A float near the middle of x (for messages and sorting only, never for a decision)."""
    x = Interval.of(x)
    return (L.to_float(x.lo) + L.to_float(x.hi)) / 2


def width_float(x):
    return L.to_float(L.mpf_sub(x.hi, x.lo, 53, CEILING))


__all__ = ["Interval", "Undecided", "precision", "bits", "exp", "log", "sqrt", "erf", "tanh", "sigmoid",
           "hull", "hull_max", "hull_min", "to_fraction"]
