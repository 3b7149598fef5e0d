#!/usr/bin/python3
"""The copy construction of Repeat After Me (Theorem 2.3) in vectorized numpy, float32: the peer of tverify's fast
path (issue 7). It rebuilds the construction from the literal weights that bench/export_copy_case writes (embedding
Psi, layer-1 MLP, averaging-head windows, tau), runs layer 1 for every position at once, then generates the L copy
tokens autoregressively with incremental keys (the keys of positions 0..p are computed once and reused), a max-shifted
softmax and the argmax readout. Floating point: a measurement of speed, never a verification.

usage: copy_numpy.py CASE.json   -> prints the seconds for the full copy and whether it copied x."""
import json
import sys
import time

import numpy as np


def main(path):
    case = json.load(open(path))
    n, length = case["n"], case["L"]
    psi = np.array(case["psi"], dtype=np.float32)
    inner = np.array(case["inner"], dtype=np.float32)
    bias = np.array(case["inner_bias"], dtype=np.float32) if case["inner_bias"] else 0
    outer = np.array(case["outer"], dtype=np.float32)
    tau = np.float32(case["tau"])
    x = np.array(case["x"], dtype=np.int64)
    d = psi.shape[1]
    bos, copy = psi.shape[0] - 2, psi.shape[0] - 1
    start = time.perf_counter()
    seq = np.concatenate([[bos], x, [copy], x])
    total = len(seq)
    emb = psi[seq]
    cumulative = np.vstack([np.zeros((1, d), np.float32), np.cumsum(emb, axis=0, dtype=np.float32)])
    positions = np.arange(total)
    heads = []
    for t in range(1, n + 2):  # Lemma C.1: h_t averages the last min(t, p + 1) embeddings
        first = np.maximum(positions - t + 1, 0)
        heads.append((cumulative[positions + 1] - cumulative[first]) / (positions - first + 1)[:, None])
    u = np.hstack(heads)
    y = np.maximum(u @ inner.T + bias, 0) @ outer.T
    key_dim = (y.shape[1] - d) // 2
    value_dot_psi = y[:, :d] @ psi.T
    keys, queries = y[:, d:d + key_dim], y[:, d + key_dim:]
    out = np.empty(length, dtype=np.int64)
    prompt = length + 2
    for k in range(length):
        p = prompt - 1 + k
        scores = keys[:p + 1] @ queries[p] * tau
        weights = np.exp(scores - scores.max())
        readout = (weights @ value_dot_psi[:p + 1]) / weights.sum()
        out[k] = int(np.argmax(readout))
    seconds = time.perf_counter() - start
    print(f"numpy float32 peer: D={case['D']} n={n} L={length}: {seconds:.4f} s, copied={bool((out == x).all())}")


if __name__ == "__main__":
    main(sys.argv[1])
