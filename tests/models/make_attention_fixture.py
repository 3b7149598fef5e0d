"""Writes the PyTorch attention fixture of tests/test_model.cpp: an untrained decoder layer as researchers write it
(nn.Embedding, sinusoidal positions, nn.MultiheadAttention with two heads and a symmetric ALiBi bias -|i - j| / 2
under a causal -inf mask, LayerNorm, a GELU MLP), exported by torch.onnx.export at opset 17 (LayerNormalization as
one op, Abs for the bias), and the argmax PyTorch computes in float32 at every position of every sequence
[BOS = 4, x_1..x_n] over V = 4 tokens, n = 1..4, as an --expected file. Needs PyTorch (scripts/setup --examples);
run from the repository root: /usr/bin/python3 tests/models/make_attention_fixture.py
"""
import itertools
import json
import math
import os

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
V, BOS = 4, 4


class AttentionLayer(nn.Module):
    def __init__(self, d=8, max_length=16):
        super().__init__()
        self.embedding = nn.Embedding(V + 1, d)
        self.attention = nn.MultiheadAttention(d, 2, batch_first=True)
        self.norm = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 16), nn.GELU(), nn.Linear(16, d))
        self.out = nn.Linear(d, V)
        position = torch.arange(max_length).unsqueeze(1)
        frequency = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
        table = torch.zeros(max_length, d)
        table[:, 0::2] = torch.sin(position * frequency)
        table[:, 1::2] = torch.cos(position * frequency)
        self.register_buffer("positions", table)

    def forward(self, tokens):
        n = tokens.shape[1]
        x = self.embedding(tokens) + self.positions[:n]
        i = torch.arange(n)
        bias = -(i.unsqueeze(1) - i.unsqueeze(0)).abs().float() * 0.5
        bias = bias.masked_fill(torch.triu(torch.ones(n, n, dtype=torch.bool), 1), float("-inf"))
        attended, _ = self.attention(x, x, x, attn_mask=bias, need_weights=False)
        x = self.norm(x + attended)
        return self.out(x + self.mlp(x))


def main():
    torch.manual_seed(0)
    model = AttentionLayer().eval()
    torch.onnx.export(model, (torch.tensor([[BOS, 0, 1, 2]]),), os.path.join(HERE, "attention_alibi.onnx"),
                      opset_version=17, input_names=["tokens"], output_names=["logits"],
                      dynamic_axes={"tokens": {1: "seq"}, "logits": {1: "seq"}})
    with open(os.path.join(HERE, "attention_alibi.jsonl"), "w") as f, torch.no_grad():
        for n in range(1, 5):
            for x in itertools.product(range(V), repeat=n):
                tokens = [BOS, *x]
                argmax = model(torch.tensor([tokens]))[0].argmax(-1).tolist()
                f.write(json.dumps({"input": tokens, "output": argmax}) + "\n")


if __name__ == "__main__":
    main()
