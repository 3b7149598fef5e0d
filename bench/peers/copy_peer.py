#!/usr/bin/python3
"""The copy construction of Repeat After Me (Theorem 2.3) in vectorized numpy or PyTorch (CPU), float32: the peers of
tverify's fast path. It rebuilds the construction from the literal weights that bench/export_copy_case
writes (embedding Psi, layer-1 MLP, averaging-head windows, tau), runs layer 1 for every position at once, then
generates the L copy tokens autoregressively with incremental keys (the keys of positions 0..p are computed once and
reused), a max-shifted softmax and the argmax readout. Floating point: a measurement of speed, never a verification.

usage: copy_peer.py CASE.json numpy|torch [threads]   -> prints the seconds for the full copy and whether it copied x.
(numpy uses the BLAS Debian ships; torch is given `threads` intra-op threads, default 2.)"""
import json
import sys
import time

import numpy as np


def layer1(case, seq):
    """Keys, queries and value . Psi of every position (Lemma C.1: head t averages the last min(t, p + 1) embeddings)."""
    n = case["n"]
    psi = np.array(case["psi"], dtype=np.float32)
    inner = np.array(case["inner"], dtype=np.float32)
    bias = np.array(case["inner_bias"], dtype=np.float32) if case["inner_bias"] else 0
    outer = np.array(case["outer"], dtype=np.float32)
    d = psi.shape[1]
    total = len(seq)
    emb = psi[seq]
    cumulative = np.vstack([np.zeros((1, d), np.float32), np.cumsum(emb, axis=0, dtype=np.float32)])
    positions = np.arange(total)
    heads = []
    for t in range(1, n + 2):
        first = np.maximum(positions - t + 1, 0)
        heads.append((cumulative[positions + 1] - cumulative[first]) / (positions - first + 1)[:, None])
    u = np.hstack(heads)
    y = np.maximum(u @ inner.T + bias, 0) @ outer.T
    key_dim = (y.shape[1] - d) // 2
    return y[:, d:d + key_dim], y[:, d + key_dim:], y[:, :d] @ psi.T


def generate_numpy(keys, queries, values, tau, length, prompt):
    out = np.empty(length, dtype=np.int64)
    for k in range(length):
        p = prompt - 1 + k
        scores = keys[:p + 1] @ queries[p] * tau
        weights = np.exp(scores - scores.max())
        readout = (weights @ values[:p + 1]) / weights.sum()
        out[k] = int(np.argmax(readout))
    return out


def generate_torch(keys, queries, values, tau, length, prompt):
    import torch
    keys, queries, values = (torch.from_numpy(np.ascontiguousarray(a)) for a in (keys, queries, values))
    out = np.empty(length, dtype=np.int64)
    with torch.no_grad():
        for k in range(length):
            p = prompt - 1 + k
            scores = torch.mv(keys[:p + 1], queries[p]) * tau
            weights = torch.exp(scores - scores.max())
            readout = torch.mv(values[:p + 1].t(), weights) / weights.sum()
            out[k] = int(torch.argmax(readout))
    return out


def main(path, backend, threads):
    case = json.load(open(path))
    length = case["L"]
    psi_rows = len(case["psi"])
    bos, copy = psi_rows - 2, psi_rows - 1
    x = np.array(case["x"], dtype=np.int64)
    tau = np.float32(case["tau"])
    if backend == "torch":
        import torch
        torch.set_num_threads(threads)
    generate = {"numpy": generate_numpy, "torch": generate_torch}[backend]
    start = time.perf_counter()
    seq = np.concatenate([[bos], x, [copy], x])
    keys, queries, values = layer1(case, seq)
    out = generate(keys, queries, values, float(tau), length, length + 2)
    seconds = time.perf_counter() - start
    print(f"{backend} float32 peer: D={case['D']} n={case['n']} L={length}: {seconds:.4f} s, "
          f"copied={bool((out == x).all())}")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or sys.argv[2] not in ("numpy", "torch"):
        sys.exit("usage: copy_peer.py CASE.json numpy|torch [threads]")
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) == 4 else 2)
