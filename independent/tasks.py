"""The reference tasks of `tverify check model --task`, written from their definitions in docs/model.md ("Tasks and
token layouts"), and the boxes of inputs the bounds method decides ("Tasks over boxes").

`outputs(task, x, ...)` is the list y of expected classes of the data sequence x (None where x is not an instance of
`ar` or `nar`); `reads(task, n, target)` the data positions (0-based) that target's expected class depends on.
"""
from collections import Counter
from fractions import Fraction
import itertools

TASKS = ("copy", "reverse", "previous", "sort", "histogram", "double-histogram", "most-frequent", "dyck1", "dyck2",
         "parity", "majority", "count3", "ar", "nar", "markov-next")
PREFIX_TASKS = ("parity", "majority", "dyck1", "dyck2", "count3")


def _dyck(x, pairs):
    """The state after each prefix: 0 balanced, 1 open, 2 failed (a closing bracket that does not match the
    innermost open one; failed stays failed)."""
    stack, failed, states = [], False, []
    for token in x:
        if not failed:
            if token in pairs:  # an opening bracket
                stack.append(token)
            elif stack and pairs.get(stack[-1]) == token:
                stack.pop()
            else:
                failed = True
        states.append(2 if failed else (1 if stack else 0))
    return states


def _recall_answer(x, width):
    """The token after the unique earlier occurrence of the last `width` tokens, or None (not an instance)."""
    n = len(x)
    if n < width + 1:
        return None
    key = tuple(x[n - width:])
    starts = [s for s in range(0, n - width) if tuple(x[s:s + width]) == key]
    return x[starts[0] + width] if len(starts) == 1 else None


def outputs(task, x, N=2, p=None, q=None):
    x = list(x)
    n = len(x)
    if task == "copy":
        return x
    if task == "reverse":
        return x[::-1]
    if task == "previous":
        return [x[0]] + x[:-1] if x else []
    if task == "sort":
        return sorted(x)
    if task == "histogram":
        counts = Counter(x)
        return [counts[v] for v in x]
    if task == "double-histogram":
        counts = Counter(x)
        return [sum(1 for c in counts.values() if c == counts[v]) for v in x]
    if task == "most-frequent":
        counts, first = Counter(x), {}
        for i, v in enumerate(x):
            first.setdefault(v, i)
        return sorted(counts, key=lambda v: (-counts[v], first[v]))
    if task == "dyck1":
        return _dyck(x, {0: 1})
    if task == "dyck2":
        return _dyck(x, {0: 1, 2: 3})
    if task == "parity":
        return [sum(x[:i + 1]) % 2 for i in range(n)]
    if task == "majority":
        out = []
        for i in range(n):
            counts = Counter(x[:i + 1])
            best = max(counts.values())
            out.append(min(v for v, c in counts.items() if c == best))
        return out
    if task == "count3":  # ENTP eq. (4): pairs (j, k) in [i]^2 with x_j + x_k + x_i = 0 (mod i), mod i
        out = []
        for i in range(1, n + 1):
            pairs = sum(1 for j in range(i) for k in range(i) if (x[j] + x[k] + x[i - 1]) % i == 0)
            out.append(pairs % i)
        return out
    if task in ("ar", "nar"):
        answer = _recall_answer(x, 1 if task == "ar" else N)
        return None if answer is None else [answer]
    if task == "markov-next":  # the likelier next token: 1 after 0 when p > 1/2, 0 after 1 when q > 1/2
        return [(1 if p > Fraction(1, 2) else 0) if v == 0 else (0 if q > Fraction(1, 2) else 1) for v in x]
    raise KeyError(task)


def reads(task, n, target):
    """The 0-based data positions target `target` (0-based) of a length-n sequence depends on, or None (all)."""
    if task in ("copy", "markov-next"):
        return [target]
    if task == "reverse":
        return [n - 1 - target]
    if task == "previous":
        return [max(target - 1, 0)]
    if task in PREFIX_TASKS:
        return list(range(target + 1))
    return list(range(n))


NO_OUTPUT = "no output"  # the class of a member with fewer outputs than the target (most-frequent's k < n)


def expected_over_box(task, sets, target, N=2, p=None, q=None, limit=4096):
    """The set of expected classes of target `target` over the members of the box `sets` (one tuple of tokens per
    data position) that are instances of the task, or None when there are more than `limit` combinations to try."""
    n = len(sets)
    if task == "ar":
        return _recall_over_box(sets)
    positions = reads(task, n, target)
    combinations = 1
    for i in positions:
        combinations *= len(sets[i])
    if combinations > limit:
        return None
    member = [s[0] for s in sets]
    classes = set()
    for choice in itertools.product(*(sets[i] for i in positions)):
        for i, v in zip(positions, choice):
            member[i] = v
        y = outputs(task, member, N, p, q)
        if y is not None:
            classes.add(y[target] if target < len(y) else NO_OUTPUT)
    return classes


def _recall_over_box(sets):
    """ar over a box: the token after the unique earlier occurrence j of x_n = t, over every t, j with an instance
    (every other earlier position able to avoid t)."""
    n = len(sets)
    classes = set()
    for t in sets[-1]:
        for j in range(n - 1):
            if t not in sets[j]:
                continue
            if any(not (set(sets[k]) - {t}) for k in range(n - 1) if k != j):
                continue
            classes |= {t} if j + 1 == n - 1 else set(sets[j + 1]) - {t}
    return classes


def recall_instances(sets):
    """How many members of the box are instances of ar (x_n occurs exactly once in x_1..x_{n-1})."""
    n, total = len(sets), 0
    for t in sets[-1]:
        for j in range(n - 1):
            if t in sets[j]:
                product = 1
                for k in range(n - 1):
                    if k != j:
                        product *= len(sets[k]) - (t in sets[k])
                total += product
    return total


def recall_members(sets):
    """The instances of ar in the box, in no particular order."""
    n = len(sets)
    for t in sets[-1]:
        for j in range(n - 1):
            if t in sets[j]:
                others = [[v for v in sets[k] if v != t] if k != j else [t] for k in range(n - 1)]
                for choice in itertools.product(*others):
                    yield list(choice) + [t]


def subtract(box, cut):
    """The members of `box` outside `cut`, as disjoint boxes (both boxes are tuples of frozensets)."""
    if any(not (a & b) for a, b in zip(box, cut)):
        return [box]
    pieces, inside = [], list(box)
    for i, (a, b) in enumerate(zip(box, cut)):
        outside = a - b
        if outside:
            pieces.append(tuple(inside[:i]) + (outside,) + tuple(box[i + 1:]))
        inside[i] = a & b
    return pieces
