"""Confirms a certificate of `tverify check model` (docs/certificate.md, docs/model.md) without tverify's code.

What it re-derives, each as a Finding:
- the model file (and an --expected file) by SHA-256 against `options`;
- the numbers that are formulas of others: checked = passed + failed + unknown, the per-length rows adding up to
  them, each length's error rate, each length's count of inputs (the task's domain, counted here), the verdict;
- every counterexample: re-evaluated here (onnx_exact, exact or enclosed at rising precision), its expected output
  from this module's own task definitions (tasks.py), its `got` and that it fails;
- `verified` by enumeration: every input re-evaluated when the domain has at most ENUMERATION_LIMIT inputs (else a
  seeded sample, reported not checked);
- `verified` by bounds: every decided box re-derived by this interpreter's own interval evaluation over the box, then
  the coverage: every input of the domain in a box re-derived here for every target, or re-evaluated one by one;
- a refuted claim's failure count, recounted when the domain is small enough to enumerate;
- the recorded margins: `smallest_margin` re-enclosed at its input, each decided box's margin against the bound
  re-derived here.
"""
import hashlib
import json
import multiprocessing
import os
import random
import re
from fractions import Fraction
import itertools

import onnx

import intervals
import model_answers
import onnx_exact
import tasks
from findings import BadInput, Finding, CONFIRMED, NOT_CONFIRMED, NOT_CHECKED

ENUMERATION_LIMIT = 10 ** 5
WORKERS = 2


# ---------------------------------------------------------------------------------------------------------------
# Reading fields: a field of the wrong type or range is bad input.

MAX_V, MAX_LENGTH, MAX_N = 64, 64, 16  # tverify's own ranges of --V, --lengths and --N (`check model --help`)

def field(obj, key, kind, where, optional=False):
    if not isinstance(obj, dict):
        raise BadInput(f"{where} is not an object")
    if key not in obj:
        if optional:
            return None
        raise BadInput(f"{where}.{key} is missing")
    value = obj[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise BadInput(f"{where}.{key} is not an integer")
    if kind is int and value < 0:
        raise BadInput(f"{where}.{key} is negative")
    if kind is not int and not isinstance(value, kind):
        raise BadInput(f"{where}.{key} is not {getattr(kind, '__name__', kind)}")
    return value


def exact_number(text, where):
    if isinstance(text, int) and not isinstance(text, bool):
        return Fraction(text)
    if not isinstance(text, str) or not re.fullmatch(r"-?[0-9]{1,400}(/0*[1-9][0-9]{0,399})?", text):
        raise BadInput(f"{where} is not an exact number (p or p/q, q > 0)")
    return Fraction(text)


DECIMAL = re.compile(r"-?[0-9]{1,400}(\.[0-9]{1,400})?([eE][-+]?[0-9]{1,4})?")


def decimal(text, where):
    """A decimal number as certificates write them (exponents of at most 4 digits: a longer one is no margin
    tverify prints, and Fraction would take forever over 1e999999999)."""
    if not isinstance(text, str) or not DECIMAL.fullmatch(text.strip()):
        raise BadInput(f"{where}: '{text}' is not a decimal number")
    return Fraction(text.strip())


def sha256_of(path):
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def locate(path, folder, what):
    """A file as recorded: from the current folder, else from the certificate's folder (docs/certificate.md)."""
    for candidate in (path, os.path.join(folder, path)):
        if os.path.isfile(candidate):
            return candidate
    raise BadInput(f"the {what} file '{path}' is missing")


# ---------------------------------------------------------------------------------------------------------------
# The run a certificate records: the model, the task or the expected pairs, the layout, the decode.

class Run:
    def __init__(self, certificate, folder):
        params = field(certificate, "params", dict, "certificate")
        options = field(certificate, "options", dict, "certificate")
        self.model_path = locate(field(params, "onnx", str, "params"), folder, "model")
        self.model_sha = field(field(options, "model", dict, "options"), "sha256", str, "options.model")
        self.decode = field(options, "decode", str, "options")
        if self.decode not in ("every", "last", "generate"):
            raise BadInput(f"options.decode is '{self.decode}'")
        weights = field(options["model"], "weights", str, "options.model", optional=True)
        self.snapped = weights is not None and weights != "exact as stored" or "snapped" in options["model"]
        self.max_counterexamples = field(options, "max_counterexamples", int, "options", optional=True)
        self.expected_path = None
        if "expected" in params:
            self.expected_path = locate(field(params, "expected", str, "params"), folder, "expected")
            self.expected_sha = field(field(options, "expected", dict, "options"), "sha256", str, "options.expected")
            self.task = None
            self.pairs = read_pairs(self.expected_path, self.decode)
            self.output_of, self.repeated = {}, None
            for x, y in self.pairs:
                if tuple(x) in self.output_of and self.repeated is None:
                    self.repeated = x
                self.output_of.setdefault(tuple(x), y)
        else:
            self.task = field(params, "task", str, "params")
            self.V = field(params, "V", int, "params")
            if not 1 <= self.V <= MAX_V:
                raise BadInput(f"params.V {self.V} is outside [1, {MAX_V}]")
            lengths = field(params, "lengths", str, "params")
            match = re.fullmatch(r"([0-9]{1,3}):([0-9]{1,3})", lengths)
            if not match or not 1 <= int(match.group(1)) <= int(match.group(2)) <= MAX_LENGTH:
                raise BadInput(f"params.lengths '{lengths}' is not lo:hi with 1 <= lo <= hi <= {MAX_LENGTH}")
            self.lengths = range(int(match.group(1)), int(match.group(2)) + 1)
            bos = field(params, "bos", str, "params", optional=True)
            if bos not in (None, "yes", "no"):
                raise BadInput(f"params.bos '{bos}' is not yes or no")
            self.bos = bos != "no"
            self.N = field(params, "N", int, "params", optional=True)
            if self.N is None:
                self.N = 2
            elif not 2 <= self.N <= MAX_N:
                raise BadInput(f"params.N {self.N} is outside [2, {MAX_N}]")
            self.p = exact_number(params["p"], "params.p") if "p" in params else None
            self.q = exact_number(params["q"], "params.q") if "q" in params else None
            if self.task == "markov-next" and not all(v is not None and 0 < v < 1 for v in (self.p, self.q)):
                raise BadInput("params.p and params.q of task markov-next must be given, each in (0, 1)")

    # The inputs of the domain, one length at a time, in domain order.
    def inputs(self, n):
        if self.task is None:
            return [pair[0] for pair in self.pairs if len(pair[0]) == n]
        everything = (list(x) for x in itertools.product(range(self.V), repeat=n))
        if self.task in ("ar", "nar"):
            return (x for x in everything if self.expected(x) is not None)
        return everything

    def domain_size(self, n):
        """How many inputs of length n the claim covers (ar, nar: the instances), or None if too many to count."""
        if self.task is None:
            return len(self.inputs(n))
        if self.task == "ar":
            return tasks.recall_instances([tuple(range(self.V))] * n)
        if self.task == "nar":
            return sum(1 for _ in self.inputs(n)) if self.V ** n <= 10 ** 6 else None
        return self.V ** n

    def all_lengths(self):
        if self.task is None:
            return sorted({len(pair[0]) for pair in self.pairs})
        return list(self.lengths)

    def expected(self, x):
        if self.task is None:
            return self.output_of.get(tuple(x))
        return tasks.outputs(self.task, x, self.N, self.p, self.q)

    # How an input is laid out and read (docs/model.md, "Tasks and token layouts", "--decode").
    def layout(self, x):
        """(the sequence fed for `every` and `last`, the position of each target), for a data sequence x."""
        if self.task is None:
            y = self.expected(x)
            return list(x), list(range(len(x) - len(y), len(x)))
        n = len(x)
        if self.task == "copy":  # [BOS, x, COPY, x_1..x_{n-1}] teacher-forced; y_k read at position n + k
            return [self.V] + list(x) + [self.V + 1] + list(x[:-1]), [n + 1 + k for k in range(n)]
        sequence = ([self.V] if self.bos else []) + list(x)
        shift = 1 if self.bos else 0
        if self.task in ("ar", "nar"):
            return sequence, [n - 1 + shift]
        count = len(self.expected(x))
        return sequence, [i + shift for i in range(count)]

    def prompt(self, x):
        if self.task is None:
            return list(x)
        if self.task == "copy":
            return [self.V] + list(x) + [self.V + 1]
        return ([self.V] if self.bos else []) + list(x)


def read_pairs(path, decode):
    """The --expected file: one {"input": [...], "output": [...]} a line (a duplicate key is bad input)."""
    pairs = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line, object_pairs_hook=_no_duplicates)
            except ValueError as error:
                raise BadInput(f"{path} line {number}: {error}")
            if not isinstance(item, dict):
                raise BadInput(f"{path} line {number}: not an object")
            x, y = item.get("input"), item.get("output")
            if isinstance(y, int) and not isinstance(y, bool):
                y = [y]
            if not _int_list(x) or not _int_list(y):
                raise BadInput(f"{path} line {number}: input and output must be lists of integers")
            pairs.append((x, y[-1:] if decode == "last" else y))
    return pairs


def _int_list(v):
    return isinstance(v, list) and all(isinstance(t, int) and not isinstance(t, bool) for t in v)


def _no_duplicates(items):
    keys = [k for k, _ in items]
    if len(keys) != len(set(keys)):
        raise ValueError(f"a key given twice ({sorted(k for k in keys if keys.count(k) > 1)[0]!r})")
    return dict(items)


# ---------------------------------------------------------------------------------------------------------------
# One input, judged by the model: right, wrong (certified) or undecided; with what it answered.

_WORK = {}  # the model and run of the worker processes (fork copies them)


def answer(x):
    """(verdict, got, margins) of one data sequence: verdict "right", "wrong" or "undecided"; got as a certificate
    writes it; margins the enclosures of the winners' margins at the read positions (for `every` and `last`)."""
    model, run = _WORK["model"], _WORK["run"]
    y = run.expected(x)
    if run.decode == "generate":
        margins = []
        got = model_answers.generate_certified(model, run.prompt(x), y, margins)
        if got == list(y):
            return "right", got, margins
        return ("undecided" if got[-1] == model_answers.UNDECIDED else "wrong"), got, []
    sequence, positions = run.layout(x)
    if run.decode == "last":
        positions, y = positions[-1:], y[-1:]
    got, rows = model_answers.read(model, sequence, positions)
    wrong = any(g != model_answers.UNDECIDED and g != e for g, e in zip(got, y))
    if wrong:
        return "wrong", got, []
    if model_answers.UNDECIDED in got:
        return "undecided", got, []
    margins = [(positions[i], model_answers.margin(rows[i], g)) for i, g in enumerate(got)]
    return "right", got, margins


def _answer_task(x):
    try:
        verdict, got, margins = answer(x)
        smallest = None
        for position, m in margins:
            low = intervals.to_fraction(intervals.Interval.of(m).lo) if isinstance(m, intervals.Interval) else m
            if smallest is None or low < smallest[0]:
                smallest = (low, position)
        return verdict, got, smallest
    except onnx_exact.Refused as error:
        return "refused", str(error), None


def answers(model, run, inputs):
    """The answer of every input, in order, on WORKERS processes."""
    _WORK.update(model=model, run=run)
    inputs = list(inputs)
    if len(inputs) < 50 or WORKERS == 1:
        return [_answer_task(x) for x in inputs]
    with multiprocessing.get_context("fork").Pool(WORKERS) as pool:
        return pool.map(_answer_task, inputs, chunksize=max(1, len(inputs) // (WORKERS * 16)))


# ---------------------------------------------------------------------------------------------------------------
# The checks.

def confirm(certificate, folder, bounds_check, sample=1000, seed=0):
    """The findings on a model certificate; bounds_check(claim_check) checks a claim decided by bounds."""
    run = Run(certificate, folder)
    out = []
    actual = sha256_of(run.model_path)
    if actual != run.model_sha:
        return [Finding(f"model file {run.model_path}", NOT_CONFIRMED,
                        f"the model file differs: sha256 {actual}, the certificate records {run.model_sha}")]
    out.append(Finding(f"model file {run.model_path}", CONFIRMED, "sha256 matches options.model.sha256"))
    if run.expected_path is not None:
        actual = sha256_of(run.expected_path)
        status = CONFIRMED if actual == run.expected_sha else NOT_CONFIRMED
        out.append(Finding(f"expected file {run.expected_path}", status,
                           "sha256 matches options.expected.sha256" if status == CONFIRMED else
                           f"the expected file differs: sha256 {actual}"))
        if status != CONFIRMED:
            return out
        if run.repeated is not None:
            return out + [Finding(f"expected file {run.expected_path}", NOT_CHECKED,
                                  f"input {run.repeated} is given more than once: each line is a case of its own "
                                  "there, and this checker judges an input by one output")]
    elif run.task not in tasks.TASKS:
        return out + [Finding(f"task {run.task}", NOT_CHECKED, "a task this checker does not implement")]
    if run.snapped:
        return out + [Finding("options.model.weights", NOT_CHECKED,
                              "weights snapped by --weights-as-decimal are not re-derived here")]
    try:
        model = onnx.load(run.model_path)
    except Exception as error:  # the file's hash matched, so tverify read it: ours cannot
        return out + [Finding(f"model file {run.model_path}", NOT_CHECKED, f"onnx cannot read it: {error}")]
    out.append(_domain_finding(certificate, run))
    claims = field(certificate, "claims", list, "certificate")
    if not claims:
        raise BadInput("certificate.claims is empty")
    for index, claim in enumerate(claims):
        out += ClaimCheck(certificate, run, model, claim, f"claims[{index}]", sample, seed, bounds_check).findings()
    return out


def _domain_finding(certificate, run):
    domain = field(certificate, "domain", dict, "certificate")
    stated = field(domain, "inputs", int, "domain")
    samples = certificate["params"].get("samples")
    if isinstance(samples, int) and not isinstance(samples, bool):  # --samples: the domain is the sample drawn
        return Finding("domain.inputs", NOT_CHECKED, f"{stated}: the size of tverify's sample, not re-drawn here")
    if run.task is None:
        mine = len(run.pairs)
    else:
        mine = sum(run.V ** n for n in run.lengths)
    status = CONFIRMED if stated == mine else NOT_CONFIRMED
    return Finding("domain.inputs", status, f"{stated}" + ("" if status == CONFIRMED else f", counted here {mine}"))


class ClaimCheck:
    def __init__(self, certificate, run, model, claim, where, sample, seed, bounds_check):
        self.run, self.model, self.claim, self.where = run, model, claim, where
        self.sample, self.seed, self.bounds_check = sample, seed, bounds_check
        self.verdict = field(claim, "verdict", str, where)
        self.id = field(claim, "id", str, where)
        self.counts = {k: field(claim, k, int, where) for k in ("checked", "passed", "failed", "unknown")}
        self.details = field(claim, "details", dict, where)
        self.counterexamples = field(claim, "counterexamples", list, where)
        self.method = field(self.details, "method", str, f"{where}.details", optional=True) or "enumerate"
        if self.method not in ("enumerate", "bounds"):
            raise BadInput(f"{where}.details.method '{self.method}' is not enumerate or bounds")
        hypotheses = claim.get("outside_hypotheses")
        if not isinstance(hypotheses, bool):
            raise BadInput(f"{where}.outside_hypotheses is not a boolean")
        if hypotheses or self.verdict == "vacuous":
            raise BadInput(f"{where}: a model claim has no hypotheses (outside_hypotheses true or verdict vacuous)")
        if self.verdict not in ("verified", "refuted", "unknown"):
            raise BadInput(f"{where}.verdict '{self.verdict}' is not verified, refuted or unknown")
        bits = self.details.get("decided_at_bits", {})
        if not isinstance(bits, dict) or any(isinstance(v, bool) or not isinstance(v, int) or v < 0
                                             for v in bits.values()):
            raise BadInput(f"{where}.details.decided_at_bits is not an object of counts")
        self.rows = self._length_rows()
        self.out = []

    def add(self, item, status, why=""):
        self.out.append(Finding(f"{self.where} {self.id} {item}", status, why))

    def _length_rows(self):
        rows = field(self.details, "lengths", list, f"{self.where}.details")
        parsed = []
        for i, row in enumerate(rows):
            at = f"{self.where}.details.lengths[{i}]"
            parsed.append({k: field(row, k, int, at) for k in ("length", "inputs", "failed", "unknown")})
            if "error_rate" in row:
                parsed[-1]["error_rate"] = exact_number(row["error_rate"], f"{at}.error_rate")
            if "error_rate_bounds" in row:
                bounds = field(row, "error_rate_bounds", list, at)
                if len(bounds) != 2:
                    raise BadInput(f"{at}.error_rate_bounds is not a pair")
                parsed[-1]["error_rate_bounds"] = [exact_number(b, f"{at}.error_rate_bounds") for b in bounds]
        return parsed

    def findings(self):
        self.check_arithmetic()
        self.check_counterexamples()
        if self.id == "model.task_sample":
            self.add("sample", NOT_CHECKED, "the inputs tverify drew are not re-drawn here: only its "
                     "counterexamples and counts are checked")
        elif self.verdict == "verified":
            if self.method == "bounds":
                self.check_bounds()
            else:
                self.check_every_input("verified")
        elif self.verdict == "refuted":
            self.check_every_input("refuted")
        elif self.verdict == "unknown":
            self.add("verdict unknown", NOT_CHECKED, "an unknown verdict asserts no property of the model")
        else:
            self.add(f"verdict {self.verdict}", NOT_CHECKED, "a model claim has no hypotheses to be vacuous on")
        self.check_smallest_margin()
        return self.out

    # -- numbers that are formulas of others
    def check_arithmetic(self):
        c = self.counts
        total = c["passed"] + c["failed"] + c["unknown"]
        self.add("checked = passed + failed + unknown", CONFIRMED if total == c["checked"] else NOT_CONFIRMED,
                 f"{c['checked']} = {c['passed']} + {c['failed']} + {c['unknown']}" if total == c["checked"] else
                 f"{c['checked']} != {total}")
        sums = {k: sum(r[k] for r in self.rows) for k in ("inputs", "failed", "unknown")}
        agree = sums["inputs"] == c["checked"] and sums["failed"] == c["failed"] and sums["unknown"] == c["unknown"]
        self.add("per-length rows add up", CONFIRMED if agree else NOT_CONFIRMED,
                 f"inputs {sums['inputs']}, failed {sums['failed']}, unknown {sums['unknown']}")
        for r in self.rows:
            self._check_rate(r)
        if self.id == "model.task":
            self._check_length_counts()
        self._check_verdict()

    def _check_rate(self, r):
        item = f"length {r['length']} error rate"
        if r["inputs"] == 0 or r["failed"] + r["unknown"] > r["inputs"]:
            self.add(item, NOT_CONFIRMED, "failures and unknown inputs exceed the inputs, or no inputs")
            return
        low, high = Fraction(r["failed"], r["inputs"]), Fraction(r["failed"] + r["unknown"], r["inputs"])
        if r["unknown"] == 0:
            ok = r.get("error_rate") == low
            self.add(item, CONFIRMED if ok else NOT_CONFIRMED, f"{r.get('error_rate')} = {r['failed']}/{r['inputs']}"
                     if ok else f"stated {r.get('error_rate')}, {r['failed']}/{r['inputs']} = {low}")
        else:
            ok = r.get("error_rate_bounds") == [low, high] and r.get("error_rate") in (None, low)
            self.add(item, CONFIRMED if ok else NOT_CONFIRMED, f"bounds [{low}, {high}]")

    def _check_length_counts(self):
        lengths = self.run.all_lengths()
        stated = {r["length"]: r["inputs"] for r in self.rows}
        for n in lengths:
            mine = self.run.domain_size(n)
            if mine is None:
                self.add(f"length {n} inputs", NOT_CHECKED, "too many sequences to count the instances")
                continue
            if mine == 0 and n not in stated:
                continue
            status = CONFIRMED if stated.get(n) == mine else NOT_CONFIRMED
            self.add(f"length {n} inputs", status, f"{stated.get(n)}" + ("" if status == CONFIRMED else
                                                                          f", the domain has {mine}"))
        extra = sorted(set(stated) - set(lengths))
        if extra:
            self.add("lengths", NOT_CONFIRMED, f"rows for lengths {extra} outside the domain")

    def _check_verdict(self):
        c, v = self.counts, self.verdict
        if v == "verified":
            ok = c["failed"] == 0 and c["unknown"] == 0 and not self.counterexamples
        elif v == "refuted":
            ok = c["failed"] > 0 and bool(self.counterexamples)
        elif v == "unknown":
            ok = c["failed"] == 0 and c["unknown"] > 0 or "reason" in self.claim
        else:
            ok = False
        expected_count = min(c["failed"], self.run.max_counterexamples) if self.run.max_counterexamples is not None \
            else None
        if ok and expected_count is not None and v != "unknown" and self.id == "model.task":
            ok = len(self.counterexamples) == expected_count
        self.add(f"verdict {v} from its counts", CONFIRMED if ok else NOT_CONFIRMED,
                 f"failed {c['failed']}, unknown {c['unknown']}, {len(self.counterexamples)} counterexamples")

    # -- counterexamples
    def check_counterexamples(self):
        inputs = []
        for i, ce in enumerate(self.counterexamples):
            where = f"{self.where}.counterexamples[{i}]"
            x = field(ce, "input", list, where)
            if not _int_list(x):
                raise BadInput(f"{where}.input is not a list of integers")
            inputs.append(x)
            self._check_counterexample(x, ce, f"counterexample {x}")
        if len(inputs) > 1 and self.id == "model.task" and self.run.task is not None:
            keys = [(len(x), x) for x in inputs]  # domain order: shorter first, then lexicographic
            ordered = all(a < b for a, b in zip(keys, keys[1:]))
            self.add("counterexamples in domain order", CONFIRMED if ordered else NOT_CONFIRMED,
                     "shorter first, then lexicographic, none twice" if ordered else
                     "not in increasing domain order, or one given twice")

    def _check_counterexample(self, x, ce, item):
        run = self.run
        if not self._in_domain(x):
            self.add(item, NOT_CONFIRMED, "the input is not in the domain")
            return
        y = run.expected(x)
        stated_expected = ce.get("expected")
        if not isinstance(stated_expected, list):
            stated_expected = [stated_expected]
        mine_expected = y[-1:] if run.decode == "last" else y
        if stated_expected != mine_expected:
            self.add(item, NOT_CONFIRMED, f"expected {stated_expected}, the task gives {mine_expected}")
            return
        _WORK.update(model=self.model, run=run)
        try:
            verdict, got, _ = answer(x)
        except onnx_exact.Refused as error:
            self.add(item, NOT_CHECKED, f"this interpreter refuses the model: {error}")
            return
        stated_got = ce.get("got")
        if not isinstance(stated_got, list):
            stated_got = [stated_got]
        self._compare_got(item, verdict, got, stated_got, mine_expected, ce.get("detail"))

    def _compare_got(self, item, verdict, got, stated, expected, detail):
        if self.run.decode == "generate":
            if verdict == "wrong" and got == stated:
                self.add(item, CONFIRMED, f"generates {got}, expected {expected}")
            elif verdict == "undecided":
                self.add(item, NOT_CHECKED, f"a step undecided up to {model_answers.LADDER[-1]} bits: {got}")
            else:
                self.add(item, NOT_CONFIRMED, f"generates {got}, the certificate says {stated}")
            return
        if len(stated) != len(got):
            self.add(item, NOT_CONFIRMED, f"got has {len(stated)} entries, the task reads {len(got)}")
            return
        undecided_here = []
        for k, (mine, theirs) in enumerate(zip(got, stated)):
            if theirs == model_answers.UNDECIDED:
                continue
            if mine == model_answers.UNDECIDED:
                undecided_here.append(k)
            elif mine != theirs:
                self.add(item, NOT_CONFIRMED, f"target {k + 1}: argmax {mine}, the certificate says {theirs}")
                return
        if verdict == "right":
            self.add(item, NOT_CONFIRMED, f"the model answers {got} = expected: no failure")
        elif verdict == "wrong" and not undecided_here:
            self.add(item, CONFIRMED, f"answers {got}, expected {expected}")
        elif verdict == "wrong":
            self.add(item, NOT_CHECKED, f"fails, but targets {undecided_here} stay undecided here")
        else:
            self.add(item, NOT_CHECKED, f"undecided up to {model_answers.LADDER[-1]} bits: {got}")

    def _in_domain(self, x):
        run = self.run
        if run.task is None:
            return tuple(x) in run.output_of
        return len(x) in run.lengths and all(0 <= t < run.V for t in x) and run.expected(x) is not None

    # -- every input, one by one
    def check_every_input(self, what):
        sizes = [self.run.domain_size(n) for n in self.run.all_lengths()]
        if None in sizes:
            self.add("every input", NOT_CHECKED, "the domain is too large to count")
            return
        total = sum(sizes)
        if total <= ENUMERATION_LIMIT:
            inputs = [x for n in self.run.all_lengths() for x in self.run.inputs(n)]
            self._judge_all(inputs, what, total)
        elif what == "verified":
            self._judge_sample(total)
        else:
            self.add("failure count", NOT_CHECKED, f"{total:,} inputs: too many to recount here")

    def _judge_all(self, inputs, what, total):
        results = answers(self.model, self.run, inputs)
        refused = [r for r in results if r[0] == "refused"]
        if refused:
            self.add("every input", NOT_CHECKED, f"this interpreter refuses the model: {refused[0][1]}")
            return
        failing = [x for x, r in zip(inputs, results) if r[0] == "wrong"]
        undecided = [x for x, r in zip(inputs, results) if r[0] == "undecided"]
        self._record_margins(inputs, results)
        c = self.counts
        if what == "verified":
            if failing:
                self.add("every input", NOT_CONFIRMED, f"{len(failing)} inputs fail here, the first {failing[0]}")
            elif undecided:
                self.add("every input", NOT_CHECKED, f"{len(undecided)} inputs undecided here, the first "
                         f"{undecided[0]}")
            else:
                self.add("every input", CONFIRMED, f"all {total:,} inputs re-evaluated and right")
            return
        if len(failing) == c["failed"] and len(undecided) == c["unknown"]:
            self.add("failure count", CONFIRMED, f"{len(failing)} of {total:,} inputs fail, "
                     f"{len(undecided)} undecided")
        elif undecided and len(failing) <= c["failed"] <= len(failing) + len(undecided):
            self.add("failure count", NOT_CHECKED, f"{len(failing)} fail here, {len(undecided)} undecided")
        else:
            self.add("failure count", NOT_CONFIRMED, f"{len(failing)} of {total:,} inputs fail here, "
                     f"{len(undecided)} undecided; the certificate says {c['failed']} and {c['unknown']}")
        if self.run.task is not None and self.run.max_counterexamples is not None and not undecided:
            first = failing[:self.run.max_counterexamples]
            listed = [ce.get("input") for ce in self.counterexamples]
            self.add("counterexamples are the smallest", CONFIRMED if listed == first else NOT_CONFIRMED,
                     f"the first {len(first)} failing inputs in domain order" if listed == first else
                     f"the smallest failing inputs are {first[:3]}...")

    def _judge_sample(self, total):
        rng = random.Random(self.seed)
        lengths = self.run.all_lengths()
        weights = [self.run.domain_size(n) for n in lengths]
        picks = []
        for _ in range(self.sample):
            n = rng.choices(lengths, weights)[0]
            picks.append(self._random_input(rng, n))
        results = answers(self.model, self.run, picks)
        bad = [x for x, r in zip(picks, results) if r[0] != "right"]
        if bad:
            self.add("every input (sample)", NOT_CONFIRMED if any(r[0] == "wrong" for r in results) else
                     NOT_CHECKED, f"sampled input {bad[0]} is not right here")
        else:
            self.add("every input", NOT_CHECKED, f"a seeded sample of {self.sample:,} of {total:,} inputs agrees; "
                     "the rest not re-evaluated")

    def _random_input(self, rng, n):
        while True:
            x = [rng.randrange(self.run.V) for _ in range(n)]
            if self.run.expected(x) is not None:
                return x

    # -- margins
    def _record_margins(self, inputs, results):
        self.smallest_seen = None
        if self.run.decode == "generate":  # a generation's margins are its steps' (on their prefixes): not compared
            return
        for x, r in zip(inputs, results):
            if r[0] == "right" and r[2] is not None and (self.smallest_seen is None or r[2][0] < self.smallest_seen[0]):
                self.smallest_seen = (r[2][0], x, r[2][1])

    def check_smallest_margin(self):
        stated, from_enumeration = self.details.get("smallest_margin"), True
        if stated is None and isinstance(self.details.get("smallest_margin_bound"), dict):
            stated, from_enumeration = self.details["smallest_margin_bound"].get("smallest_checked"), False
        if stated is None:
            return
        where = f"{self.where}.details.smallest_margin"
        text = field(stated, "margin", str, where)
        x = field(stated, "input", list, where)
        position = field(stated, "position", int, where)
        bounds = _parse_enclosure(text, where)
        item = f"smallest margin {text} at {x}, position {position}"
        if not _int_list(x) or not self._in_domain(x):
            self.add(item, NOT_CONFIRMED, "the input is not in the domain")
            return
        sequence, positions = self._read_sequence(x)
        if position not in positions:
            self.add(item, NOT_CONFIRMED, f"position {position} is not read")
            return
        if self.run.decode == "generate":  # the generation step reading `position` evaluates the prefix up to it
            sequence = sequence[:position + 1]
        try:
            mine = self._margin_at(sequence, position, bounds)
        except onnx_exact.Refused as error:
            self.add(item, NOT_CHECKED, f"this interpreter refuses the model: {error}")
            return
        if mine is None:
            self.add(item, NOT_CHECKED, "the margin's enclosure here is not inside the stated one")
            return
        low, high = mine
        if high < bounds[0] or low > bounds[1]:
            self.add(item, NOT_CONFIRMED, f"the margin there is in [{float(low):.17g}, {float(high):.17g}]")
            return
        seen = getattr(self, "smallest_seen", None)
        if seen is not None and from_enumeration and seen[0] < low and _margin_upper(self, seen) < bounds[0]:
            self.add(item, NOT_CONFIRMED, f"input {seen[1]} has a smaller margin (at most "
                     f"{float(_margin_upper(self, seen)):.12g})")
            return
        self.add(item, CONFIRMED, "the margin there is re-enclosed inside the stated interval" +
                 ("" if from_enumeration else " (whether it is the smallest of the inputs tverify checked one by one "
                  "is not re-derived: smallest_margin_bound.at_least is)"))

    def _read_sequence(self, x):
        """(a sequence holding every sequence the model reads for x, the positions read): for generation, the prompt
        followed by the expected tokens (what a right generation reads, step by step)."""
        run = self.run
        if run.decode == "generate":
            prompt, y = run.prompt(x), run.expected(x)
            return prompt + y, list(range(len(prompt) - 1, len(prompt) - 1 + len(y)))
        sequence, positions = run.layout(x)
        return sequence, positions[-1:] if run.decode == "last" else positions

    def _margin_at(self, sequence, position, bounds):
        """An enclosure (low, high) of the margin at one position that lies inside `bounds`, climbing the ladder;
        None when even the last rung's is not inside (or the argmax is undecided)."""
        last = None
        for bits in model_answers.LADDER[:4]:
            with intervals.precision(bits):
                try:
                    row = model_answers.logit_rows(self.model, sequence)[position]
                    winner = model_answers.certified_argmax(row)
                except intervals.Undecided:
                    continue
                if isinstance(winner, str):
                    return (Fraction(0), Fraction(0))
                m = model_answers.margin(row, winner)
                low, high = (intervals.to_fraction(m.lo), intervals.to_fraction(m.hi)) \
                    if isinstance(m, intervals.Interval) else (m, m)
                last = (low, high)
                if bounds[0] <= low and high <= bounds[1]:
                    return last
                if high < bounds[0] or low > bounds[1]:
                    return last
        return None

    # -- the bounds method
    def check_bounds(self):
        self.bounds_check(self)


def _margin_upper(check, seen):
    """An upper bound of the margin recorded for input seen[1] (its enclosure's upper end)."""
    sequence, positions = check.run.layout(seen[1])
    with intervals.precision(64):
        try:
            row = model_answers.logit_rows(check.model, sequence)[seen[2]]
            m = model_answers.margin(row, model_answers.certified_argmax(row))
        except (intervals.Undecided, onnx_exact.Refused):
            return Fraction(10 ** 9)
    return intervals.to_fraction(m.hi) if isinstance(m, intervals.Interval) else m


def _parse_enclosure(text, where):
    match = re.fullmatch(r"\[\s*(\S+)\s*,\s*(\S+)\s*\]", text.strip())
    if match:
        return decimal(match.group(1), f"{where}.margin"), decimal(match.group(2), f"{where}.margin")
    value = decimal(text, f"{where}.margin")
    return value, value
