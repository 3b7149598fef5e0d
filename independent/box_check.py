"""A model claim verified by bounds (docs/model.md, "Beyond enumeration"; docs/certificate.md, "A model check by
bounds"), re-derived here: each decided box by this checker's own interval evaluation over the box, then the
coverage of the domain by the boxes re-derived and the inputs re-evaluated one by one.

A box is a length, a target and per data position a set of tokens; BOS, COPY and a generation's teacher-forced
tokens are laid out as the task lays them out, each teacher-forced token an independent copy of its position's set
(a superset of the sequences generation makes). The embedding lookup gives each position the hull of its tokens'
rows (onnx_exact.evaluate with token_sets), and every other op its interval evaluation; the box is decided when the
lower end of the expected class's logit lies above the upper end of every other logit at the target's position.
"""
from fractions import Fraction

import intervals
import model_answers
import model_certificate as mc
import onnx_exact
import tasks
from findings import BadInput, CONFIRMED, NOT_CONFIRMED, NOT_CHECKED

MAX_PIECES = 20_000


def parse_box(text, n, V, where):
    parts = [p.strip() for p in text.split("|")]
    if len(parts) != n:
        raise BadInput(f"{where}.box has {len(parts)} positions for length {n}")
    sets = []
    for part in parts:
        if part == "*":
            sets.append(frozenset(range(V)))
            continue
        try:
            tokens = [int(t) for t in part.split(",")]
        except ValueError:
            raise BadInput(f"{where}.box position '{part}' is not '*' or tokens")
        if len(set(tokens)) != len(tokens) or any(not 0 <= t < V for t in tokens):
            raise BadInput(f"{where}.box position '{part}' repeats a token or names one outside 0..{V - 1}")
        sets.append(frozenset(tokens))
    return tuple(sets)


class BoundsCheck:
    def __init__(self, claim_check):
        self.c = claim_check
        self.run, self.model = claim_check.run, claim_check.model

    def add(self, item, status, why=""):
        self.c.add(item, status, why)

    def check(self):
        run = self.run
        if run.task is None or run.decode == "generate" and run.task != "copy":
            self.add("bounds", NOT_CHECKED, "boxes of an --expected run, or of a generation other than copy's, are "
                     "not re-derived here")
            return
        bounds = mc.field(self.c.details, "bounds", dict, f"{self.c.where}.details")
        raw = mc.field(bounds, "decided_boxes", list, f"{self.c.where}.details.bounds")
        counts = {k: mc.field(bounds, k, int, f"{self.c.where}.details.bounds") for k in
                  ("inputs_decided_by_bounds", "inputs_failed_by_bounds", "inputs_checked_one_by_one",
                   "inputs_unknown_at_budget", "box_evaluations")}
        if counts["inputs_failed_by_bounds"] or counts["inputs_unknown_at_budget"]:
            self.add("bounds counts", NOT_CONFIRMED, "a verified claim with inputs failed by bounds or unknown at "
                     "the budget")
        boxes = [self._parse(i, b) for i, b in enumerate(raw)]
        derived, false = self._derive_boxes(boxes)
        self.covered, self.uncovered_low = False, None
        if false:
            self.add("coverage", NOT_CHECKED, "not re-derived: a decided box is already false")
        else:
            self._check_coverage(boxes, derived, bounds)
        self._check_lowest_box(boxes, derived)

    def _own_lowest_margin(self, derived):
        """A lower bound, re-derived here, on the margin of every input at every target it reads: the lowest of the
        boxes' lower bounds and of the margins of the inputs re-evaluated one by one; None unless coverage was
        confirmed here and every such margin is known."""
        if not self.covered or self.uncovered_low == "unknown":
            return None
        lows = [box["low"] for box in derived if box.get("low") is not None]
        if self.uncovered_low is not None:
            lows.append(self.uncovered_low)
        return min(lows) if lows else None

    def _check_lowest_box(self, boxes, derived):
        """smallest_margin_bound: lowest_box is a decided box, with the lowest recorded margin; at_least is the
        smaller of its margin_at_least and smallest_checked's lower end, rounded down, and (what makes it confirmed)
        at most the lowest margin bound re-derived here over the whole domain."""
        where = f"{self.c.where}.details.smallest_margin_bound"
        bound = self.c.details.get("smallest_margin_bound")
        if bound is None:
            return
        if not isinstance(bound, dict):
            raise BadInput(f"{where} is not an object")
        parts = []
        lowest = bound.get("lowest_box")
        if lowest is not None:
            n = mc.field(lowest, "length", int, f"{where}.lowest_box")
            target = mc.field(lowest, "target", int, f"{where}.lowest_box")
            text = mc.field(lowest, "box", str, f"{where}.lowest_box")
            at_least = _decimal(mc.field(lowest, "margin_at_least", str, f"{where}.lowest_box"), where)
            match = [b for b in boxes if b["length"] == n and b["target"] == target and b["text"] == text]
            margins = [_decimal(str(b["margin"]), where) for b in boxes if b["margin"] is not None]
            ok = bool(match) and (match[0]["margin"] is None or
                                  abs(_decimal(str(match[0]["margin"]), where) - at_least) <= Fraction(1, 10 ** 4))
            ok = ok and all(at_least <= m + Fraction(1, 10 ** 4) for m in margins)
            if not ok:
                self.add("smallest_margin_bound.lowest_box", NOT_CONFIRMED,
                         "not a decided box, or its margin is not the lowest recorded")
            elif match[0].get("status") == CONFIRMED:
                self.add("smallest_margin_bound.lowest_box", CONFIRMED,
                         "a decided box re-derived here, whose margin is the lowest recorded")
            else:
                self.add("smallest_margin_bound.lowest_box", NOT_CHECKED, "a box this checker did not re-derive")
            parts.append(at_least)
        checked = bound.get("smallest_checked")
        if checked is not None:
            parts.append(mc._parse_enclosure(mc.field(checked, "margin", str, f"{where}.smallest_checked"),
                                             where)[0])
        text = mc.field(bound, "at_least", str, where)
        if parts and text != "inf":
            least, stated = min(parts), _decimal(text, where)
            if not (stated <= least and least - stated <= abs(least) / 10 ** 5 + Fraction(1, 10 ** 12)):
                self.add("smallest_margin_bound.at_least", NOT_CONFIRMED, f"{text}, its parts give {float(least):.9g}")
                return
            own = self._own_lowest_margin(derived)
            if own is None:
                self.add("smallest_margin_bound.at_least", NOT_CHECKED, f"{text}: the smaller of its parts, but no "
                         "lower bound on every input's margin was re-derived here")
            elif stated <= own:
                self.add("smallest_margin_bound.at_least", CONFIRMED, f"{text} is at most {float(own):.9g}, the "
                         "lowest margin bound re-derived here (the boxes', and the inputs re-evaluated one by one)")
            else:
                self.add("smallest_margin_bound.at_least", NOT_CHECKED, f"{text} is above {float(own):.9g}, the "
                         "lowest margin bound re-derived here")

    def _parse(self, i, b):
        where = f"{self.c.where}.details.bounds.decided_boxes[{i}]"
        n = mc.field(b, "length", int, where)
        target = mc.field(b, "target", int, where)
        if n not in self.run.lengths:
            raise BadInput(f"{where}.length {n} is outside the domain's lengths")
        if target >= self._targets(n):
            raise BadInput(f"{where}.target {target} is past the length's targets")
        sets = parse_box(mc.field(b, "box", str, where), n, self.run.V, where)
        margin = b.get("margin")
        return {"length": n, "target": target, "sets": sets, "margin": margin, "text": b["box"]}

    def _targets(self, n):
        return 1 if self.run.task in ("ar", "nar") else n

    def _read_targets(self, n):
        """The targets the decode reads at length n."""
        count = self._targets(n)
        return [count - 1] if self.run.decode == "last" else list(range(count))

    # -- each box, by this checker's interval evaluation
    def _layout(self, sets, target):
        """(token sets of the sequence evaluated, the position read) for a box and target."""
        run, n = self.run, len(sets)
        tuples = [tuple(sorted(s)) for s in sets]
        if run.task == "copy":
            prefix = [(run.V,)] + tuples + [(run.V + 1,)]
            if run.decode == "generate":  # generation step `target` evaluates this prefix and reads its last row
                sequence = prefix + tuples[:target]
                return sequence, len(sequence) - 1
            return prefix + tuples[:n - 1], n + 1 + target
        shift = 1 if run.bos else 0
        sequence = ([(run.V,)] if run.bos else []) + tuples
        if run.task in ("ar", "nar"):
            return sequence, n - 1 + shift
        return sequence, target + shift

    def _derive_boxes(self, boxes):
        """Per box: CONFIRMED, NOT_CONFIRMED or NOT_CHECKED, with a reason; findings for the lot."""
        false, loose, margin_false, margin_loose, derived = [], [], [], [], []
        for box in boxes:
            status, why, low = self._derive(box)
            box["status"] = status
            if status == NOT_CONFIRMED:
                false.append(f"{box['length']}/{box['target']} '{box['text']}': {why}")
            elif status == NOT_CHECKED:
                loose.append(f"{box['length']}/{box['target']} '{box['text']}': {why}")
            else:
                box["low"] = low
                derived.append(box)
                verdict, why = self._check_margin(box, low)
                if verdict == NOT_CONFIRMED:
                    margin_false.append(f"'{box['text']}' (target {box['target']}): {why}")
                elif verdict == NOT_CHECKED:
                    margin_loose.append(f"'{box['text']}' (target {box['target']}): {why}")
        total = len(boxes)
        if false:
            self.add("decided boxes", NOT_CONFIRMED, f"{len(false)} of {total} are not decided as stated: "
                     + "; ".join(false[:3]))
        elif loose:
            self.add("decided boxes", NOT_CHECKED, f"{len(loose)} of {total} not decided by this checker's "
                     "enclosures (too loose here, not shown false): " + "; ".join(loose[:3]))
        else:
            self.add("decided boxes", CONFIRMED, f"all {total} re-derived by this checker's interval evaluation")
        if margin_false:
            self.add("decided boxes' margins", NOT_CONFIRMED, f"{len(margin_false)} differ: " +
                     "; ".join(margin_false[:3]))
        elif margin_loose:
            self.add("decided boxes' margins", NOT_CHECKED, f"{len(margin_loose)} not reproduced: " +
                     "; ".join(margin_loose[:3]))
        elif derived:
            self.add("decided boxes' margins", CONFIRMED, "each recorded margin agrees with the bound re-derived "
                     "here to the 4 digits recorded")
        return derived, bool(false)

    def _derive(self, box):
        run = self.run
        sets = [tuple(sorted(s)) for s in box["sets"]]
        classes = tasks.expected_over_box(run.task, sets, box["target"], run.N, run.p, run.q)
        if classes is None:
            return NOT_CHECKED, "the task's classes over the box are too many to enumerate here", None
        if len(classes) > 1:
            return NOT_CONFIRMED, f"the task expects {sorted(classes, key=str)} over the box, not one class", None
        if classes == {tasks.NO_OUTPUT}:
            return NOT_CONFIRMED, "the task has no output at this target over the box", None
        if not classes:
            return CONFIRMED, "no instance in the box", None
        (c,) = classes
        sequence, position = self._layout(box["sets"], box["target"])
        for bits in (64, 256):
            with intervals.precision(bits):
                try:
                    rows = model_answers.logit_rows(self.model, [s[0] for s in sequence], sequence)
                    row = rows[position]
                    if c >= len(row):
                        return NOT_CONFIRMED, f"class {c} is not an output of the model", None
                    low = _lower_margin(row, c)
                except intervals.Undecided:
                    continue
                except onnx_exact.Refused as error:
                    return NOT_CHECKED, f"no box evaluation here: {error}", None
            if low > 0:
                return CONFIRMED, "", low
        return NOT_CHECKED, f"class {c}'s lower end is not above the others' upper ends here", None

    def _check_margin(self, box, low):
        """The recorded margin (4 digits) against the lower bound re-derived here."""
        text = box["margin"]
        if text is None or low is None:
            return CONFIRMED, ""
        stated = mc.decimal(str(text), "a decided box's margin")
        tolerance = Fraction(1, 10 ** 4) + abs(low) / 1000
        if abs(stated - low) <= tolerance:
            return CONFIRMED, ""
        if stated < low:
            return NOT_CONFIRMED, f"recorded {text}, the box's bound is {float(low):.6g}"
        member_margin = self._member_margin(box)
        if member_margin is not None and stated > member_margin:
            return NOT_CONFIRMED, f"recorded {text}, above the margin {float(member_margin):.6g} of a member"
        return NOT_CHECKED, f"recorded {text}, the bound here is {float(low):.6g}"

    def _member_margin(self, box):
        x = [min(s) for s in box["sets"]]
        if self.run.expected(x) is None:
            return None
        sequence, position = self._layout(tuple(frozenset([t]) for t in x), box["target"])
        with intervals.precision(64):
            try:
                row = model_answers.logit_rows(self.model, [s[0] for s in sequence])[position]
                m = model_answers.margin(row, model_answers.certified_argmax(row))
            except (intervals.Undecided, onnx_exact.Refused):
                return None
        return intervals.to_fraction(m.hi) if isinstance(m, intervals.Interval) else m

    # -- coverage: every input in a re-derived box for every target it reads, or re-evaluated here
    def _check_coverage(self, boxes, derived, bounds):
        run = self.run
        uncovered, decided_count = [], 0
        for n in run.lengths:
            domain = tuple(frozenset(range(run.V)) for _ in range(n))
            pieces = []
            for target in self._read_targets(n):
                cuts = [box["sets"] for box in derived if box["length"] == n and box["target"] == target]
                if _disjoint(cuts) and sum(self._instances(c) for c in cuts) == self._instances(domain):
                    continue  # disjoint boxes holding as many instances as the domain: every instance is in one
                remainder = self._remainder(domain, cuts)
                if remainder is None:
                    self.add("coverage", NOT_CHECKED, f"length {n}: the boxes' remainder is too fragmented")
                    return
                pieces += remainder
            count = sum(self._instances(p) for p in pieces)
            if count > mc.ENUMERATION_LIMIT or len(uncovered) + count > mc.ENUMERATION_LIMIT:
                self.add("coverage", NOT_CHECKED, f"length {n}: up to {count:,} inputs outside the boxes re-derived "
                         "here: too many to re-evaluate")
                return
            members = sorted({tuple(x) for p in pieces for x in self._members(p)})
            uncovered += [list(x) for x in members]
            decided_count += run.domain_size(n) - len(members)
        results = mc.answers(self.model, run, uncovered)
        refused = [r for r in results if r[0] == "refused"]
        failing = [x for x, r in zip(uncovered, results) if r[0] == "wrong"]
        undecided = [x for x, r in zip(uncovered, results) if r[0] == "undecided"]
        if refused:
            self.add("coverage", NOT_CHECKED, f"this interpreter refuses the model: {refused[0][1]}")
        elif failing:
            self.add("coverage", NOT_CONFIRMED, f"{len(failing)} inputs outside the boxes fail here, the first "
                     f"{failing[0]}")
        elif undecided:
            self.add("coverage", NOT_CHECKED, f"{len(undecided)} inputs outside the boxes undecided here")
        else:
            self.add("coverage", CONFIRMED, f"every input lies in a box re-derived here for each target it reads "
                     f"({decided_count:,} inputs), or was re-evaluated here and is right ({len(uncovered):,})")
            self.covered = True
            lows = [r[2][0] if r[2] is not None else None for r in results]
            self.uncovered_low = "unknown" if None in lows else min(lows, default=None)
        stated = bounds.get("inputs_decided_by_bounds")
        if isinstance(stated, int) and not refused:
            status = CONFIRMED if stated == decided_count else NOT_CHECKED
            self.add("inputs_decided_by_bounds", status, f"{stated}" + ("" if status == CONFIRMED else
                     f"; the boxes re-derived here decide {decided_count:,}"))

    def _remainder(self, domain, cuts):
        """The members of `domain` in no box of `cuts`, as disjoint boxes (None past MAX_PIECES): split a position
        into the classes of tokens the boxes that meet the domain tell apart, until each part lies inside a box or
        meets none. Parts without an instance of the task are dropped."""
        pieces, stack = [], [(domain, cuts)]
        while stack:
            part, boxes = stack.pop()
            if self._instances(part) == 0:
                continue
            meeting = [b for b in boxes if all(p & c for p, c in zip(part, b))]
            if not meeting:
                pieces.append(part)
            elif not any(all(p <= c for p, c in zip(part, b)) for b in meeting):
                i = next(i for i in range(len(part)) if any(not part[i] <= b[i] for b in meeting))
                classes = {}
                for t in part[i]:
                    classes.setdefault(tuple(t in b[i] for b in meeting), set()).add(t)
                for tokens in classes.values():
                    stack.append((part[:i] + (frozenset(tokens),) + part[i + 1:], meeting))
            if len(pieces) + len(stack) > MAX_PIECES:
                return None
        return pieces

    def _instances(self, sets):
        if self.run.task == "ar":
            return tasks.recall_instances(sets)
        count = 1
        for s in sets:
            count *= len(s)
        return count

    def _members(self, sets):
        if self.run.task == "ar":
            return tasks.recall_members([tuple(sorted(s)) for s in sets])
        import itertools
        return (list(x) for x in itertools.product(*[sorted(s) for s in sets])
                if self.run.expected(list(x)) is not None)


def _decimal(text, where):
    return mc.decimal(text, where)


def _disjoint(boxes):
    """Whether no two boxes share a member (two boxes are disjoint when some position's token sets are)."""
    masks = [tuple(sum(1 << t for t in s) for s in box) for box in boxes]
    for i, a in enumerate(masks):
        for b in masks[i + 1:]:
            if all(x & y for x, y in zip(a, b)):
                return False
    return True


def _lower_margin(row, c):
    """The lower end of logit c minus the largest upper end of the others (Fraction); intervals.Undecided never."""
    def low(v):
        return intervals.to_fraction(v.lo) if isinstance(v, intervals.Interval) else Fraction(v) \
            if not isinstance(v, float) else v

    def high(v):
        return intervals.to_fraction(v.hi) if isinstance(v, intervals.Interval) else Fraction(v) \
            if not isinstance(v, float) else v
    others = [high(v) for k, v in enumerate(row) if k != c]
    return low(row[c]) - max(others)


def check_bounds(claim_check):
    """Checks a claim decided by bounds: its boxes re-derived, their coverage, its margin."""
    BoundsCheck(claim_check).check()
