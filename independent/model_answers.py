"""What a model answers on one input, read as tverify's model certificates state it (docs/model.md, "The readout" and
"--decode"): each read position's argmax, an exact tie being a failure, shown "tie a,b". `every` and `generate` read
exact logits (a rational graph); `read` and `generate_certified` read exact logits or enclosures, certified: an
argmax is a class only when its logit's enclosure lies above every other one, a tie only when the tied logits are
equal as reals, and otherwise "undecided" after the last precision of LADDER.
"""
import math

import intervals
import onnx_exact


def argmax(row):
    """The class of the largest entry, or "tie a,b,..." naming every class tied for the largest."""
    top = max(row)
    tied = [k for k, v in enumerate(row) if v == top]
    return tied[0] if len(tied) == 1 else "tie " + ",".join(map(str, tied))


def logit_rows(model, tokens, token_sets=None):
    """The rows of logits of every position: the output read as [1, len, classes] or [len, classes]."""
    out = onnx_exact.evaluate(model, tokens, token_sets).values
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


# Certified readout over exact values and enclosures (intervals.Interval), at rising precision.

LADDER = (64, 128, 256, 512, 1024, 2048, 4096)
UNDECIDED = "undecided"


def _upper(v):
    if isinstance(v, intervals.Interval):
        return intervals.to_fraction(v.hi)
    return v


def _order(a, b):
    """-1, 0 or 1 as a < b, a = b, a > b, decided exactly or by disjoint enclosures; else intervals.Undecided."""
    if isinstance(a, intervals.Interval) or isinstance(b, intervals.Interval):
        if isinstance(a, float) or isinstance(b, float):  # an infinite logit against an enclosure
            return -1 if a == -math.inf or b == math.inf else 1
        return intervals.Interval.of(a)._order(b)
    return (a > b) - (a < b)


def certified_argmax(row):
    """The class whose logit is above every other one's, certified; "tie a,b" when the largest logits are equal as
    reals (decided exactly, or by enclosures that are one and the same point); intervals.Undecided otherwise."""
    top = max(range(len(row)), key=lambda k: _upper(row[k]))
    tied = [top]
    for k in range(len(row)):
        if k != top:
            order = _order(row[k], row[top])
            if order == 0:
                tied.append(k)
            elif order > 0:
                raise intervals.Undecided("a logit above the one with the greatest upper end")
    return tied[0] if len(tied) == 1 else "tie " + ",".join(map(str, sorted(tied)))


def margin(row, winner):
    """The winner's logit minus the largest other one (an exact number or an enclosure)."""
    others = [v for k, v in enumerate(row) if k != winner]
    largest = others[0]
    for v in others[1:]:
        largest = onnx_exact.real_max(largest, v)
    return row[winner] - largest


def _exact_row(row):
    return not any(isinstance(v, intervals.Interval) for v in row)


def read(model, tokens, positions, token_sets=None):
    """The certified argmax at each of `positions` (indices into the sequence): a class, "tie a,b" or UNDECIDED,
    evaluating at each precision of LADDER until every position is decided (an exact graph needs one). Also the
    logit rows of those positions at the last precision used. Raises onnx_exact.Refused."""
    answers, rows = [UNDECIDED] * len(positions), None
    for bits in LADDER:
        with intervals.precision(bits):
            try:
                all_rows = logit_rows(model, tokens, token_sets)
            except intervals.Undecided:
                continue
            rows = [all_rows[p] for p in positions]
            exact = True
            for i, row in enumerate(rows):
                exact = exact and _exact_row(row)
                try:
                    answers[i] = certified_argmax(row)
                except intervals.Undecided:
                    answers[i] = UNDECIDED
        if exact or UNDECIDED not in answers:
            break
    return answers, rows


def generate_certified(model, prompt, targets, margins=None):
    """Generation step by step, each step's certified argmax appended, up to the first step that is wrong, a tie or
    undecided: the generation up to and including that step. With a list `margins`, each right step's (position read,
    enclosure of its margin) is appended to it."""
    sequence, got = list(prompt), []
    for target in targets:
        (answer,), (row,) = read(model, sequence, [len(sequence) - 1])
        got.append(answer)
        if answer != target:
            return got
        if margins is not None:
            margins.append((len(sequence) - 1, margin(row, answer)))
        sequence.append(answer)
    return got
