"""What a model answers on one input, read as tverify's model certificates state it (docs/model.md, "The readout" and
"--decode"), from exact logits: each read position's argmax, an exact tie being a failure, shown "tie a,b".
"""
import onnx_exact


def argmax(row):
    """The class of the largest entry, or "tie a,b,..." naming every class tied for the largest."""
    top = max(row)
    tied = [k for k, v in enumerate(row) if v == top]
    return tied[0] if len(tied) == 1 else "tie " + ",".join(map(str, tied))


def logit_rows(model, tokens):
    """The rows of logits of every position: the output read as [1, len, classes] or [len, classes]."""
    out = onnx_exact.evaluate(model, tokens).values
    if out.ndim == 3 and out.shape[0] == 1:
        out = out[0]
    if out.ndim != 2 or out.shape[0] != len(tokens):
        raise onnx_exact.Refused(f"the output has shape {list(out.shape)} for {len(tokens)} tokens")
    return [list(row) for row in out]


def every(model, tokens, targets):
    """One evaluation, the argmax at each of the last len(targets) positions: (right, got)."""
    rows = logit_rows(model, tokens)[len(tokens) - len(targets):]
    got = [argmax(row) for row in rows]
    return got == list(targets), got


def generate(model, prompt, targets, max_token):
    """Autoregressive generation from `prompt`, each argmax appended, up to the first token that is wrong, a tie or
    one the model does not read (past max_token): (right, the generation up to and including that token)."""
    sequence, got = list(prompt), []
    for target in targets:
        token = argmax(logit_rows(model, sequence)[-1])
        got.append(token)
        if token != target or token > max_token:
            return False, got
        sequence.append(token)
    return True, got
