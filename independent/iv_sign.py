"""The sign of a real number known as an mpmath interval expression, decided by precision alone: the one climb that
copy's readout (copy_transformer.compare_sums) and CAT's decoding (cat_layer.CatLayer.compare) make."""
from mpmath import iv


def certified_sign(total_at, precisions=(128, 512, 2048)):
    """+1 or -1 when the interval total_at() returns, evaluated at one of `precisions` bits (iv.prec, restored after),
    lies above or below 0; None when no precision excludes 0."""
    for precision in precisions:
        old = iv.prec
        iv.prec = precision
        try:
            total = total_at()
            if total.a > 0:
                return 1
            if total.b < 0:
                return -1
        finally:
            iv.prec = old
    return None
