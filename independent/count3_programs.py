"""ENTP (arXiv 2410.01600 v3): Count3 (eq. 4), Match3' (Sec. 6.2), Algorithms 2-6 of Appendices E and F."""
import operator

from rasp import Rasp, equals, true

EOS = -1  # Algorithm 6 prints no value; inputs are non-negative (docs/errata.md, "Constants that are not errors")


def count3(x):
    """Eq. (4): |{(i, j) in [n]^2 : x_i + x_j + x_n = 0 (mod n)}| (mod n)."""
    n = len(x)
    return sum((a + b + x[-1]) % n == 0 for a in x for b in x) % n


def algorithm2(x):
    n, count = len(x), 0
    for i in range(n):
        for j in range(n):
            if (x[i] + x[j] + x[n - 1]) % n == 0:
                count += 1
    return count % n


def algorithm3(x):
    n, count = len(x), 0
    table = [0] * n
    for i in range(n):
        table[-x[i] % n] += 1
    for i in range(n):
        count += table[(x[i] + x[n - 1]) % n]
    return count % n


def match3_prime(x):
    """Sec. 6.2: 1 if some (i, j) has x_1 + x_i + x_j = 0 (mod 128), else 0."""
    return int(any((x[0] + a + b) % 128 == 0 for a in x for b in x))


def g_printed(a, b):
    return a if a < b else a - b


def g_corrected(a, b):
    """docs/errata.md N1: the floor modulo g's comments describe."""
    return a % b


def algorithm4(x, rasp, variant="paper"):
    """Algorithm 4 (Count3 RASP encoder), line by line; the prediction is the output at the last position."""
    g = g_printed if variant == "paper" else g_corrected
    idxs = rasp.indices(x)
    n = rasp.sel_width(rasp.select(x, x, true))
    last_x = rasp.kqv(idxs, rasp.map2(n, 1, operator.sub), x, equals, "mean")
    y = rasp.seq_map(rasp.map2(n, x, operator.sub), n, g, site="g(n - x, n)")
    z = rasp.seq_map(rasp.map2(x, last_x, operator.add), n, g, site="g(x + last_x, n)")
    widths = rasp.sel_width(rasp.select(z, y, equals))
    c = rasp.kqv(rasp.full(x, 1), rasp.full(x, 1), rasp.map2(widths, n, operator.mul, site="sel_width * n"),
                 equals, "mean")
    c = rasp.map2(c, rasp.map2(idxs, n, operator.mul, site="idxs * n"), operator.sub)
    return rasp.kqv(c, n, c, lambda a, b: 0 <= a and a < b, "mean")


def algorithm5(x, rasp):
    """Algorithm 5 (Match3' RASP decoder)."""
    idxs = rasp.indices(x)
    first_x = rasp.kqv(idxs, rasp.full(x, 0), x, equals, "mean", causal=True)
    y = rasp.tok_map(x, lambda a: -a & 127)
    z = rasp.tok_map(rasp.map2(first_x, x, operator.add), lambda a: a & 127)
    max_count = rasp.kqv(rasp.full(x, 1), rasp.full(x, 1), rasp.sel_width(rasp.select(y, z, equals)), equals, "max")
    return rasp.tok_map(max_count, lambda a: min(a, 1))


def algorithm6(x, rasp):
    """Algorithm 6 (Count3 RASP decoder with chain of thought), on a sequence holding x, EOS and what follows."""
    m = rasp.map2
    idxs = rasp.indices(x)
    n = rasp.kqv(x, rasp.full(x, EOS), idxs, equals, "min", causal=True)
    n = rasp.tok_map(n, lambda a: a if a else -2)
    last_x = rasp.kqv(idxs, m(n, 1, operator.sub), x, equals, "mean")
    seq_len = rasp.kqv(x, x, idxs, true, "max", causal=True)
    i = m(seq_len, n, operator.sub)
    j = m(seq_len, m(2, n, operator.mul), operator.sub)
    xi = rasp.kqv(idxs, i, x, equals, "max", causal=True)
    xj = rasp.kqv(idxs, j, x, equals, "max", causal=True)
    y = m(m(m(n, xi, operator.sub), n, operator.mod), 1, operator.add)
    z = m(m(m(last_x, xj, operator.add), n, operator.mod), 1, operator.add)
    two_n, three_n = m(2, n, operator.mul), m(3, n, operator.mul)
    y_mask_write = m(m(n, idxs, operator.le), m(idxs, two_n, operator.lt), operator.and_)
    z_mask_write = m(m(two_n, idxs, operator.le), m(idxs, three_n, operator.lt), operator.and_)
    y_mask_read = m(m(n, idxs, operator.lt), m(idxs, two_n, operator.le), operator.and_)
    z_mask_read = m(m(two_n, idxs, operator.lt), m(idxs, three_n, operator.le), operator.and_)
    z_count = rasp.sel_width(rasp.select(m(x, y_mask_read, operator.mul), z, lambda a, b: a == b and a != 0,
                                         causal=True))
    count = rasp.kqv(z_mask_read, z_mask_read, m(m(n, x, operator.mul), z_mask_read, operator.mul),
                     lambda a, b: a & b, "mean", causal=True)
    ans = m(count, n, operator.mod)
    ans_mask_write = m(idxs, three_n, operator.eq)
    eos_mask_write = m(idxs, three_n, operator.gt)
    terms = [m(y, y_mask_write, operator.mul), m(z_count, z_mask_write, operator.mul),
             m(ans, ans_mask_write, operator.mul), m(EOS, eos_mask_write, operator.mul)]
    return [sum(column) for column in zip(*terms)]


def algorithm6_design(x):
    """What Algorithm 6 is designed to generate after x, EOS: y_i = (-x_i mod n) + 1, then for each j the number of i
    with y_i = z_j, z_j = (x_n + x_j mod n) + 1, then Count3(x), then EOS."""
    n = len(x)
    y = [(-a % n) + 1 for a in x]
    z = [((x[-1] + a) % n) + 1 for a in x]
    return y + [sum(yi == zj for yi in y) for zj in z] + [count3(x), EOS]


def algorithm6_generate(x, mean):
    """Autoregressive: x, EOS, then each step appends the program's output at the last position, until EOS (at most
    the designed length plus one token)."""
    sequence = list(x) + [EOS]
    rasp = Rasp(mean)
    limit = len(algorithm6_design(x)) + 1
    generated = []
    while len(generated) < limit:
        token = algorithm6(sequence, rasp)[-1]
        generated.append(token)
        sequence.append(token)
        if token == EOS:
            break
    return generated, rasp.mean_differences
