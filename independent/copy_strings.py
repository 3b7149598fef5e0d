"""Repeat After Me (arXiv 2402.01032) on strings alone: Definition 2.2, Algorithm 1, Lemma 2.4, the GSSMs of Sec. 2.3.

Strings are tuples of alphabet tokens 0..D-1, x_1..x_L as in Sec. 2.1 (Python index k holds x_{k+1}).
"""
from fractions import Fraction
from itertools import product


def window_length(n, reading):
    """Definition 2.2: the text says "n tokens"; the formula compares x_i..x_{i+n}, n + 1 tokens (errata E2)."""
    return n if reading == "text" else n + 1


def has_repeated_ngram(x, n, reading):
    """Definition 2.2: exists i != j with equal windows."""
    w = window_length(n, reading)
    seen = set()
    for start in range(len(x) - w + 1):
        window = tuple(x[start:start + w])
        if window in seen:
            return True
        seen.add(window)
    return False


def first_key_position(n, variant):
    """Algorithm 1's key loop starts at i = n + 2 as printed, at i = n + 1 corrected (errata E1)."""
    return n + 2 if variant == "paper" else n + 1


def algorithm1(x, n, variant):
    """Algorithm 1 (Hash-based copying), the hash s taken as the identity on n-grams (any injective s is the same).

    Runs every step j = 1..L as printed, stopping only where no key matches. Returns (y, failure): failure None when
    y = x, else (step j, "no key k_i equals q_j = (..)") for the step with no match, or (first j with y_j != x_j,
    "output differs from the input"). Where several keys match (possible only on strings with a repeated n-gram) the
    smallest i is taken (docs/errata.md E1).
    """
    L = len(x)
    keys = [(i, tuple(x[i - n - 1:i - 1])) for i in range(first_key_position(n, variant), L + 1)]
    y = []
    for j in range(1, L + 1):
        if j <= n:
            y.append(x[j - 1])
            continue
        query = tuple(y[j - n - 1:j - 1])
        matches = [i for i, key in keys if key == query]
        if not matches:
            return y, (j, f"no key k_i equals q_{j} = ({' '.join(map(str, query))})")
        y.append(x[min(matches) - 1])
    wrong = [j for j in range(1, L + 1) if y[j - 1] != x[j - 1]]
    return y, ((wrong[0], "output differs from the input") if wrong else None)


def all_strings(D, L):
    return product(range(D), repeat=L)


def p_ngram(D, n, L, reading):
    """Definition 2.2 for the uniform distribution: the exact fraction of [D]^L with a repeated n-gram."""
    repeats = sum(has_repeated_ngram(x, n, reading) for x in all_strings(D, L))
    return Fraction(repeats, D ** L), repeats


def lemma2_4_bound(D, n, L):
    """Lemma 2.4: L^2 D^-n."""
    return Fraction(L * L, D ** n)


# Sec. 2.1 and 2.3: GSSMs on the copy task. Tokens 0..D-1 are the alphabet, D is <BOS>, D + 1 is <COPY>.

def gssm_output(update, readout, initial, x, D):
    """H_{1:L}(<BOS>, x, <COPY>): the state reads the prompt, then each output r(s) is fed back through u."""
    state = initial
    for token in (D, *x, D + 1):
        state = update(state, token)
    out = []
    for _ in range(len(x)):
        token = readout[state]
        out.append(token)
        state = update(state, token)
    return tuple(out)


def gssm_error(update, readout, initial, D, L):
    """err_{D_L}(H) for the uniform copy distribution, exactly."""
    wrong = sum(gssm_output(update, readout, initial, x, D) != x for x in all_strings(D, L))
    return Fraction(wrong, D ** L)


def theorem2_7_bound(D, L, S):
    """Theorem 2.7: 1 - |S|/D^L."""
    return 1 - Fraction(S, D ** L)


def lemma_d1_best_error(D, L, S):
    """The best model of Lemma D.1's form (final state, then a map G: S -> D^L) copies min(|S|, D^L) strings."""
    return 1 - Fraction(min(S, D ** L), D ** L)
