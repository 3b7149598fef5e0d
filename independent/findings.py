"""What the independent checker found, item by item, and the one word it answers with.

Each part of a certificate the checker looks at gives one Finding: `confirmed` (re-derived here and equal), `not
confirmed` (re-derived here and different, or the certificate's claim is false) or `not checked` (this checker does
not re-derive it; the reason says why). A certificate is `confirmed` only when it has at least one finding and every
finding is `confirmed`: the checker never says `confirmed` for something it did not check.
"""
from dataclasses import dataclass

CONFIRMED, NOT_CONFIRMED, NOT_CHECKED = "confirmed", "not confirmed", "not checked"


class BadInput(Exception):
    """The certificate or a file it names cannot be read as one (exit 2, one line)."""


@dataclass
class Finding:
    item: str    # what was looked at, e.g. "claims[0] model.task counterexample [0, 1, 1, 0, 2]"
    status: str  # CONFIRMED, NOT_CONFIRMED or NOT_CHECKED
    why: str = ""

    def line(self):
        return f"{self.status}: {self.item}" + (f" ({self.why})" if self.why else "")


def answer(findings):
    """The checker's one word for a list of findings: `confirmed`, `not confirmed` or `not checked`."""
    if any(f.status == NOT_CONFIRMED for f in findings):
        return NOT_CONFIRMED
    if not findings or any(f.status == NOT_CHECKED for f in findings):
        return NOT_CHECKED
    return CONFIRMED
