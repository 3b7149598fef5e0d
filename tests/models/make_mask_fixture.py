"""Writes the PyTorch mask fixtures of tests/test_model.cpp: one untrained two-layer GPT-style model (nn.Embedding,
learned positions, pre-LayerNorm blocks with two-head causal self-attention written out as Hugging Face code writes
it, a GELU MLP) exported four times by torch.onnx.export at opset 17, identical but for the value its causal mask
fills the scores above the diagonal with: -inf, -1e4, -1e9 and torch.finfo(torch.float32).min. The weights are drawn
from a fixed seed and rounded to multiples of 1/64, so that no two logits of any input tie exactly (a finite mask
legitimately breaks a tie that -inf keeps). Needs PyTorch (scripts/setup --examples); run from the repository root:
/usr/bin/python3 tests/models/make_mask_fixture.py
"""
import os

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
V, D, HEADS, MAX_LENGTH = 3, 8, 2, 8
MASKS = {"minus_inf": float("-inf"), "minus_1e4": -1e4, "minus_1e9": -1e9,
         "lowest": torch.finfo(torch.float32).min}


class CausalSelfAttention(nn.Module):
    def __init__(self, mask_value):
        super().__init__()
        self.qkv = nn.Linear(D, 3 * D)
        self.proj = nn.Linear(D, D)
        self.mask_value = mask_value

    def forward(self, x):
        n = x.shape[1]
        q, k, v = self.qkv(x).split(D, dim=2)
        heads = lambda t: t.view(1, n, HEADS, D // HEADS).transpose(1, 2)
        q, k, v = heads(q), heads(k), heads(v)
        scores = q @ k.transpose(-2, -1) * (D // HEADS) ** -0.5
        above = torch.triu(torch.ones(n, n, dtype=torch.bool), 1)
        scores = scores.masked_fill(above, self.mask_value)
        attended = torch.softmax(scores, dim=-1) @ v
        return self.proj(attended.transpose(1, 2).reshape(1, n, D))


class Block(nn.Module):
    def __init__(self, mask_value):
        super().__init__()
        self.norm1 = nn.LayerNorm(D)
        self.attention = CausalSelfAttention(mask_value)
        self.norm2 = nn.LayerNorm(D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, x):
        x = x + self.attention(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class Gpt(nn.Module):
    def __init__(self, mask_value):
        super().__init__()
        self.embedding = nn.Embedding(V + 1, D)  # the data tokens and BOS = V
        self.positions = nn.Embedding(MAX_LENGTH, D)
        self.blocks = nn.Sequential(Block(mask_value), Block(mask_value))
        self.norm = nn.LayerNorm(D)
        self.out = nn.Linear(D, V)

    def forward(self, tokens):
        n = tokens.shape[1]
        x = self.embedding(tokens) + self.positions(torch.arange(n)).unsqueeze(0)
        return self.out(self.norm(self.blocks(x)))


def main():
    torch.manual_seed(0)
    state = {name: torch.round(t * 64) / 64 for name, t in Gpt(0.0).state_dict().items()}
    for name, value in MASKS.items():
        model = Gpt(value).eval()
        model.load_state_dict(state)
        torch.onnx.export(model, (torch.tensor([[V, 0, 1, 2]]),), os.path.join(HERE, f"mask_{name}.onnx"),
                          opset_version=17, input_names=["tokens"], output_names=["logits"],
                          dynamic_axes={"tokens": {1: "seq"}, "logits": {1: "seq"}})


if __name__ == "__main__":
    main()
