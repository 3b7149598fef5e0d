"""Five small transformers written as a researcher writes them, for `tverify check model`.

Token layouts (docs/model.md): data tokens 0..V-1, BOS = V, and for copy COPY = V + 1. Every model takes int64 tokens
of shape [1, seq] and returns logits of shape [1, seq, classes].
"""
import math

import torch
from torch import nn


def one_hot_embedding(rows):
    """An embedding whose row t is the one-hot vector of token t, as the hand-set models read their tokens."""
    embed = nn.Embedding(rows, rows)
    with torch.no_grad():
        embed.weight.copy_(torch.eye(rows))
    return embed


def positions_and_future(seq):
    """The positions 0..seq-1 as reals, and the causal mask: True where a key comes after its query."""
    return torch.arange(seq, dtype=torch.float32), torch.triu(torch.ones(seq, seq, dtype=torch.bool), diagonal=1)


def causal_attention(scores, future, values):
    """softmax(scores) @ values, every key after its query masked with -inf (masked_fill, as exporters write it)."""
    return torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1) @ values


def previous_position_scores(pos, gamma):
    """The query at position p wants the key at t = p - 1: gamma (2 t j - j^2), which is -gamma (j - t)^2 up to a
    term that does not depend on j, so every other key scores at least gamma lower."""
    wanted = (pos - 1.0).unsqueeze(-1)
    return gamma * (2.0 * wanted * pos - pos * pos)


class HistogramModel(nn.Module):
    """Hand-set, one attention layer: y_i = the number of j with x_j = x_i (task `histogram`).

    Reads [BOS, x_1..x_n]. Queries and keys are one-hot tokens, except that the BOS key is all ones, so it matches
    every query: with scores beta * [match], position i puts weight ~1/(c+1) on BOS, c the count of x_i. The value
    is [key is BOS], so the attention output is a ~ 1/(c+1), and the readout logit_k = 2a/(k+1) - 1/(k+1)^2 is largest
    for the k whose 1/(k+1) is nearest to a.
    """

    def __init__(self, V=4, max_len=8, beta=40.0):
        super().__init__()
        self.V, self.beta = V, beta
        self.embed = nn.Embedding(V + 1, V + 1)
        self.key = nn.Linear(V + 1, V + 1, bias=False)
        self.readout = nn.Linear(1, max_len + 1)
        with torch.no_grad():
            self.embed.weight.copy_(torch.eye(V + 1))
            k = torch.eye(V + 1)
            k[:V, V] = 1.0          # the BOS one-hot maps to the all-ones key
            k[V, V] = 0.0
            self.key.weight.copy_(k)
            levels = 1.0 / torch.arange(1, max_len + 2, dtype=torch.float32)
            self.readout.weight.copy_((2 * levels).unsqueeze(1))
            self.readout.bias.copy_(-levels * levels)

    def forward(self, tokens):
        e = self.embed(tokens)                                   # [1, seq, V+1]
        scores = self.beta * e @ self.key(e).transpose(-1, -2)   # [1, seq, seq]
        weights = torch.softmax(scores, dim=-1)
        a = weights @ e[..., self.V:]                            # weight on BOS
        return self.readout(a)


class CopyModel(nn.Module):
    """Hand-set, two attention layers: generates x_1..x_n after [BOS, x_1..x_n, COPY] (task `copy`).

    Layer 1: every query attends (temperature beta) to the COPY token among the keys it may see (causal mask) and
    reads its position, n + 1. Layer 2: the query at position p wants the key at t = p - n (the token to copy next);
    the score -gamma (j - t)^2 of key j, with the term t^2 that does not depend on j dropped, is the bilinear form
    gamma (2 t j - j^2) of query features (t, 1) and key features (2j, -j^2). The value is the key's one-hot token.
    Positions are computed from torch.arange, so any length works.
    """

    def __init__(self, V=3, beta=30.0, gamma=10.0):
        super().__init__()
        self.V, self.beta, self.gamma = V, beta, gamma
        self.embed = nn.Embedding(V + 2, V + 2)
        with torch.no_grad():
            self.embed.weight.copy_(torch.eye(V + 2))

    def forward(self, tokens):
        e = self.embed(tokens)                                    # [1, seq, V+2]
        seq = tokens.shape[1]
        pos = torch.arange(seq, dtype=torch.float32)
        future = torch.triu(torch.ones(seq, seq, dtype=torch.bool), diagonal=1)
        # layer 1: where is COPY?
        is_copy = e[..., self.V + 1]                               # [1, seq]
        s1 = (self.beta * is_copy).unsqueeze(1).expand(-1, seq, -1)
        w1 = torch.softmax(s1.masked_fill(future, float("-inf")), dim=-1)
        copy_position = w1 @ pos                                   # [1, seq], ~ n + 1 once COPY is seen
        # layer 2: attend to position t = p - n
        t = pos - copy_position + 1.0
        s2 = self.gamma * (2.0 * t.unsqueeze(-1) * pos - pos * pos)
        w2 = torch.softmax(s2.masked_fill(future, float("-inf")), dim=-1)
        return w2 @ e[..., : self.V]                               # logits over the data tokens


class PreviousTokenModel(nn.Module):
    """Hand-set, one attention layer: a previous-token head, y_1 = x_1 and y_i = x_{i-1} (task `previous`).

    Reads [BOS, x_1..x_n]. The query at position p wants the key at p - 1 (previous_position_scores), less
    2 gamma for a BOS key, under a causal mask. At p = 1 the wanted key is BOS, which the penalty puts below the
    query's own position: y_1 = x_1. The value is the key's one-hot data token (BOS has none), so the logits are the
    attention weights gathered per token. The scores do not depend on the data tokens, which is what lets tverify's
    bounds decide whole sets of inputs at once.
    """

    def __init__(self, V=16, gamma=10.0):
        super().__init__()
        self.V, self.gamma = V, gamma
        self.embed = one_hot_embedding(V + 1)

    def forward(self, tokens):
        e = self.embed(tokens)                                    # [1, seq, V+1]
        pos, future = positions_and_future(tokens.shape[1])
        is_bos = e[..., self.V].unsqueeze(1)                      # [1, 1, seq]: key j is BOS
        scores = previous_position_scores(pos, self.gamma) - 2.0 * self.gamma * is_bos
        return causal_attention(scores, future, e[..., : self.V])  # logits over the data tokens


class InductionHeadModel(nn.Module):
    """Hand-set, two attention layers: an induction head for associative recall (task `ar`).

    Reads [BOS, x_1..x_n]; the answer is read at the last position n: the token after the earlier occurrence of x_n.
    Layer 1 is a previous-token head without the BOS penalty: position j reads the one-hot token of position j - 1
    (BOS at j = 1). Layer 2 is the induction head: the query at position p is its own one-hot token, the key at j is
    the token layer 1 read there, so with scores beta [x_p = x_{j-1}] (causal mask) the last position attends to the
    key right after the earlier occurrence of x_n, and its value, the key's own one-hot token, is the answer.
    """

    def __init__(self, V=16, gamma=10.0, beta=20.0):
        super().__init__()
        self.V, self.gamma, self.beta = V, gamma, beta
        self.embed = one_hot_embedding(V + 1)

    def forward(self, tokens):
        e = self.embed(tokens)                                    # [1, seq, V+1]
        pos, future = positions_and_future(tokens.shape[1])
        previous = causal_attention(previous_position_scores(pos, self.gamma), future, e)  # [1, seq, V+1]
        data = e[..., : self.V]
        scores = self.beta * data @ previous[..., : self.V].transpose(-1, -2)           # [1, seq, seq]
        return causal_attention(scores, future, data)                                  # logits over the data tokens


class SortModel(nn.Module):
    """A one-layer encoder trained briefly to sort (task `sort`): y_i = the i-th smallest of x_1..x_n.

    Learned token and position embeddings, pre-LayerNorm attention with two heads written out by hand, a GELU MLP,
    residuals, a linear readout over the V data tokens.
    """

    def __init__(self, V=4, max_len=8, d=16, heads=2, hidden=32):
        super().__init__()
        self.heads = heads
        self.token = nn.Embedding(V + 1, d)
        self.position = nn.Embedding(max_len + 1, d)
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, hidden), nn.GELU(), nn.Linear(hidden, d))
        self.readout = nn.Linear(d, V)

    def forward(self, tokens):
        batch, seq = tokens.shape
        x = self.token(tokens) + self.position(torch.arange(seq))
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        split = lambda t: t.reshape(batch, seq, self.heads, -1).transpose(1, 2)   # [batch, heads, seq, d/heads]
        q, k, v = split(q), split(k), split(v)
        weights = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]), dim=-1)
        attended = (weights @ v).transpose(1, 2).reshape(batch, seq, -1)
        x = x + self.out(attended)
        x = x + self.mlp(self.norm2(x))
        return self.readout(x)


def sort_batch(V, n, batch, generator):
    x = torch.randint(0, V, (batch, n), generator=generator)
    tokens = torch.cat([torch.full((batch, 1), V), x], dim=1)
    return tokens, torch.sort(x, dim=1).values


def trained_sort_model(V=4, max_len=8, seed=0):
    """The committed sort model: initialized and trained from `seed`, whatever ran before."""
    torch.manual_seed(seed)
    return train_sort(SortModel(V=V, max_len=max_len), V=V, max_len=max_len, seed=seed)


def train_sort(model, V=4, max_len=8, steps=500, batch=64, seed=0):
    """About a second of Adam on random lengths 1..max_len; deliberately too short to be perfect."""
    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(steps):
        n = int(torch.randint(1, max_len + 1, (1,), generator=generator))
        tokens, target = sort_batch(V, n, batch, generator)
        logits = model(tokens)
        loss = nn.functional.cross_entropy(logits[:, 1:].reshape(-1, V), target.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model

