"""Exact arithmetic in Q(sqrt r): numbers a + b sqrt(r) with Fraction a, b and a fixed integer r > 0.

The copy construction's Lemma C.2 codes have entries +-1/sqrt(d), so its layer 1 and attention scores live in
Q(sqrt d). Signs are decided exactly: a + b sqrt(r) > 0 is settled by comparing a^2 with b^2 r when a and b differ in
sign. A perfect square r is folded into the rational part, so b is then always 0.
"""
from fractions import Fraction
from math import isqrt


def _root_if_square(r):
    root = isqrt(r)
    return root if root * root == r else None


class QSqrt:
    __slots__ = ("a", "b", "r")

    def __init__(self, a, b=0, r=1):
        a, b = Fraction(a), Fraction(b)
        root = _root_if_square(r)
        if root is not None:
            a, b, r = a + b * root, Fraction(0), 1
        self.a, self.b, self.r = a, b, r

    @classmethod
    def sqrt_of(cls, q, r):
        """sqrt(q) for a rational q >= 0 that is a rational square times r (e.g. 1/d with r = d)."""
        q = Fraction(q)
        if q == 0:
            return cls(0, 0, r)
        ratio = q / r  # sqrt(q) = sqrt(ratio) sqrt(r)
        num, den = _root_if_square(ratio.numerator), _root_if_square(ratio.denominator)
        if num is None or den is None:
            raise ValueError(f"sqrt({q}) is not in Q(sqrt {r})")
        return cls(0, Fraction(num, den), r)

    def _lift(self, other):
        if isinstance(other, QSqrt):
            if other.r != self.r and other.b != 0 and self.b != 0:
                raise ValueError("numbers of two different fields Q(sqrt r)")
            return other
        return QSqrt(other, 0, self.r)

    def _field(self, other):
        return self.r if self.b != 0 else other.r

    def __add__(self, other):
        o = self._lift(other)
        return QSqrt(self.a + o.a, self.b + o.b, self._field(o))

    __radd__ = __add__

    def __neg__(self):
        return QSqrt(-self.a, -self.b, self.r)

    def __sub__(self, other):
        return self + (-self._lift(other))

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, other):
        o = self._lift(other)
        r = self._field(o)
        return QSqrt(self.a * o.a + self.b * o.b * r, self.a * o.b + self.b * o.a, r)

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, QSqrt):
            if other.b != 0:
                raise ValueError("division by an irrational number is not needed here")
            other = other.a
        other = Fraction(other)
        return QSqrt(self.a / other, self.b / other, self.r)

    def sign(self):
        """-1, 0 or 1, exactly."""
        sa = (self.a > 0) - (self.a < 0)
        sb = (self.b > 0) - (self.b < 0)
        if sa == sb or sb == 0:
            return sa
        if sa == 0:
            return sb
        # a and b have opposite signs: the larger of a^2 and b^2 r wins
        a2, b2r = self.a * self.a, self.b * self.b * self.r
        return sa if a2 > b2r else (sb if b2r > a2 else 0)

    def __eq__(self, other):
        return (self - other).sign() == 0

    def __hash__(self):
        return hash((self.a, self.b, self.r if self.b != 0 else 1))

    def __lt__(self, other):
        return (self - other).sign() < 0

    def __le__(self, other):
        return (self - other).sign() <= 0

    def __gt__(self, other):
        return (self - other).sign() > 0

    def __ge__(self, other):
        return (self - other).sign() >= 0

    def is_rational(self):
        return self.b == 0

    def __repr__(self):
        if self.b == 0:
            return str(self.a)
        return f"{self.a} + {self.b} sqrt({self.r})"


def relu(x):
    return x if x.sign() > 0 else QSqrt(0, 0, x.r)
