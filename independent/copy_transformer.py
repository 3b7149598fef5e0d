"""The transformer of Theorem 2.3 (Repeat After Me, Appendix C), built from the paper's formulas.

Positions are 1-based over the copy sequence s_1 = <BOS>, s_2..s_{L+1} = x, s_{L+2} = <COPY>, then the generated
tokens (docs/positions.md). Layer 1 (Lemmas C.1 and C.4) and the attention scores are exact in Q(sqrt r); the
softmax readout is compared exactly where two tokens' readouts are the same sum of exponentials (an exact tie) and
otherwise by mpmath interval enclosures, which must exclude 0 to decide anything.
"""
from fractions import Fraction

from mpmath import iv

from iv_sign import certified_sign
from quadratic import QSqrt, relu

UNDECIDED = "undecided"


class Embedding:
    """Psi of the proof. one-hot: e_token in R^{D+2}. c2 (Lemma C.2): d = ceil(log2 D) + 2, Psi(<BOS>) = e_1,
    Psi(<COPY>) = e_2, Psi(x) = [0, 0, Psi'(x)] with Psi'(x)_k = (-1)^(bit k of x) times 1/sqrt(d) as printed, or
    1/sqrt(d') corrected (errata E5)."""

    def __init__(self, D, kind, variant):
        self.D, self.kind = D, kind
        self.BOS, self.COPY = D, D + 1
        if kind == "onehot":
            self.d, self.r = D + 2, 1
            self.vectors = [[QSqrt(int(k == token)) for k in range(self.d)] for token in range(D + 2)]
            return
        code_bits = (D - 1).bit_length()
        self.d = code_bits + 2
        self.r = self.d if variant == "paper" else max(code_bits, 1)
        scale = QSqrt.sqrt_of(Fraction(1, self.r), self.r)
        zero = QSqrt(0, 0, self.r)
        vectors = []
        for token in range(D):
            code = [scale if (token >> k) & 1 == 0 else -scale for k in range(code_bits)]
            vectors.append([zero, zero] + code)
        vectors.append([QSqrt(1, 0, self.r)] + [zero] * (self.d - 1))
        vectors.append([zero, QSqrt(1, 0, self.r)] + [zero] * (self.d - 2))
        self.vectors = vectors

    def __call__(self, token):
        return self.vectors[token]


def dot(u, v):
    total = QSqrt(0, 0, u[0].r if u else 1)
    for a, b in zip(u, v):
        total = total + a * b
    return total


def scaled(c, v):
    return [c * a for a in v]


def sub(u, v):
    return [a - b for a, b in zip(u, v)]


class Layer1:
    """Lemma C.4's block: n + 1 Hard-ALiBi averaging heads h_1..h_{n+1} (Lemma C.1) and the gadgets of its proof."""

    def __init__(self, embedding, n, variant):
        self.psi, self.n, self.variant = embedding, n, variant
        self.memo = {}

    def h(self, seq, i, t):
        """Lemma C.1: h_t(x_1..x_i) = 1/min(t, i) sum_{j = max(1, i-t+1)}^{i} x_j, as the Hard-ALiBi head computes it:
        scores W_k = W_q = 0 plus bias 0 on the last t keys and -inf before, so softmax weights 1/min(t, i)."""
        window = range(max(1, i - t + 1), i + 1)
        weight = Fraction(1, len(window))
        total = [QSqrt(0, 0, self.psi.r)] * self.psi.d
        for j in window:
            total = [a + weight * b for a, b in zip(total, self.psi(seq[j - 1]))]
        return total

    def outputs(self, seq, i):
        """(T^key_i, T^query_i, T^value_i) at position i of seq; depends on the last n + 1 tokens and on i <= n + 1."""
        n = self.n
        memo_key = tuple(seq[max(0, i - n - 1):i])
        if memo_key not in self.memo:
            self.memo[memo_key] = self._outputs(seq, i)
        return self.memo[memo_key]

    def _outputs(self, seq, i):
        n, psi = self.n, self.psi
        bos, copy = psi(psi.BOS), psi(psi.COPY)
        h = {t: self.h(seq, i, t) for t in range(1, n + 2)}
        # g_t = (t + 1) h_{t+1} - t h_t with h_0 = 0
        g = {t: sub(scaled(t + 1, h[t + 1]), scaled(t, h[t]) if t > 0 else [0] * psi.d) for t in range(0, n + 1)}
        bos_gn = n * dot(bos, g[n])

        def ghat(t):  # sigma(e_j g_t - n Psi(BOS) g_n) - sigma(-e_j g_t - n Psi(BOS) g_n), j = 1..d
            return [relu(c - bos_gn) - relu(-c - bos_gn) for c in g[t]]

        half = Fraction(1, 2) if self.variant == "paper" else 1  # errata E4: the printed 1/2 in g~_t

        def gtilde(t):  # (1/2) sigma(2 Psi(BOS)(g_t - h_1) - 1)
            return half * relu(2 * dot(bos, sub(g[t], h[1])) - 1)

        def gstar(t):  # sigma(Psi(COPY) g_{t-1})
            return relu(dot(copy, g[t - 1]))

        key = [c for t in range(1, n + 1) for c in ghat(t)] + [gtilde(t) for t in range(1, n + 1)]
        query = [c for t in range(0, n) for c in ghat(t)] + [n * gstar(t) for t in range(1, n + 1)]
        value = h[1]
        return key, query, value

    def block(self, seq, i, kind, t):
        """One block of Lemma C.4's statement at position i: 'key block', 'key position', 'query block',
        'query position' (t = 1..n) or 'value'."""
        key, query, value = self.outputs(seq, i)
        d, n = self.psi.d, self.n
        if kind == "value":
            return value
        vector = key if kind.startswith("key") else query
        if kind.endswith("block"):
            return vector[(t - 1) * d:t * d]
        return [vector[n * d + t - 1]]


def lemma_c4_statement(embedding, n, L, seq, i, kind, t, variant):
    """What Lemma C.4 states for that block, Appendix C's L read as L_C = L + 1 (docs/positions.md). corrected:
    both block families are Psi(.) only for i > n + 1 (errata E6)."""
    psi, zero = embedding, QSqrt(0, 0, embedding.r)
    d = psi.d
    if kind == "value":
        return psi(seq[i - 1])
    if kind == "key block":
        start = n + 1 if variant == "paper" else n + 2
        return psi(seq[i - t - 1]) if i >= start else [zero] * d
    if kind == "query block":
        start = n if variant == "paper" else n + 2
        return psi(seq[i - t]) if i >= start else [zero] * d
    if kind == "key position":
        return [QSqrt(int(i == t + 1), 0, psi.r)]
    if kind == "query position":
        return [QSqrt(n * int(i == L + 1 + t), 0, psi.r)]
    raise ValueError(kind)


def copy_sequence(x, generated, D):
    return [D, *x, D + 1, *generated]


class Transformer:
    def __init__(self, D, n, embedding_kind, variant, tau):
        """tau: 'proof' for d ln(8 K d), K = D^n (proof of Theorem 2.3), or a Fraction."""
        self.D, self.n = D, n
        self.psi = Embedding(D, embedding_kind, variant)
        self.layer1 = Layer1(self.psi, n, variant)
        self.tau = tau

    def tau_text(self):
        if self.tau == "proof":
            return f"{self.psi.d} ln({8 * self.D ** self.n * self.psi.d})"
        return str(self.tau)

    def tau_interval(self):
        if self.tau == "proof":
            return self.psi.d * iv.log(iv.mpf(8 * self.D ** self.n * self.psi.d))
        return iv.mpf(self.tau.numerator) / self.tau.denominator

    def scores(self, seq, i):
        """z_j = T^key_j . T^query_i for j = 1..i (the causal softmax head of the proof of Theorem 2.3)."""
        query = self.layer1.outputs(seq, i)[1]
        return [dot(self.layer1.outputs(seq, j)[0], query) for j in range(1, i + 1)]

    def readout_terms(self, seq, i):
        """Per token a: {z: coefficient} with H_i . Psi(a) = (sum_z coefficient exp(tau z)) / (sum_j exp(tau z_j)).
        The denominator is positive and shared, so the argmax compares the numerators."""
        z = self.scores(seq, i)
        terms = []
        for a in range(self.D + 2):
            psi_a = self.psi(a)
            levels = {}
            for j, zj in enumerate(z, start=1):
                value_j = self.layer1.outputs(seq, j)[2]
                c = dot(value_j, psi_a)
                if c.sign() != 0:
                    levels[zj] = levels.get(zj, QSqrt(0, 0, self.psi.r)) + c
            terms.append({level: c for level, c in levels.items() if c.sign() != 0})
        return terms

    def argmax(self, seq, i):
        """('token', a), ('tie', [a, b, ...]) for an exact tie at the top, or (UNDECIDED, None)."""
        terms = self.readout_terms(seq, i)
        count = len(terms)
        compare = [[0] * count for _ in range(count)]
        for a in range(count):
            for b in range(a + 1, count):
                s = compare_sums(terms[a], terms[b], self.tau_interval)
                if s is None:
                    return UNDECIDED, None
                compare[a][b], compare[b][a] = s, -s
        top = [a for a in range(count) if all(compare[a][b] >= 0 for b in range(count))]
        if len(top) == 1:
            return "token", top[0]
        return "tie", top

    def generate(self, x):
        """Greedy generation after <COPY> until the first token that is not x_k.
        Returns (generated, failure): failure None, or (step k, 'wrong', token), (step k, 'tie', tokens),
        (step k, UNDECIDED, None)."""
        L = len(x)
        generated = []
        for k in range(1, L + 1):
            seq = copy_sequence(x, generated, self.D)
            kind, value = self.argmax(seq, L + 1 + k)
            if kind != "token":
                return generated, (k, kind, value)
            generated.append(value)
            if value != x[k - 1]:
                return generated, (k, "wrong", value)
        return generated, None


def to_interval(q):
    x = iv.mpf(q.a.numerator) / q.a.denominator
    if q.b != 0:
        x = x + (iv.mpf(q.b.numerator) / q.b.denominator) * iv.sqrt(iv.mpf(q.r))
    return x


def compare_sums(first, second, tau_interval):
    """Sign of sum_z first[z] exp(tau z) - sum_z second[z] exp(tau z): 0 exactly when the two are the same formal sum
    (the z are exact and distinct, so exp(tau z) are distinct terms); otherwise decided by an enclosure excluding 0,
    or None."""
    difference = dict(first)
    for z, c in second.items():
        difference[z] = difference.get(z, QSqrt(0, 0, c.r)) - c
    difference = {z: c for z, c in difference.items() if c.sign() != 0}
    if not difference:
        return 0

    def total():
        tau = tau_interval()
        return sum((to_interval(c) * iv.exp(tau * to_interval(z)) for z, c in difference.items()), iv.mpf(0))
    return certified_sign(total)
