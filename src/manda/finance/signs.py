"""A figure's sign as its line names it: a loss, an outflow or a deficit is a negative income."""

from __future__ import annotations

from collections.abc import Iterable

from manda.vocabulary import vocabulary

__all__ = ["loss_wording", "names_a_cost", "names_a_loss", "signed_as_named"]

_WORDS = vocabulary()
_LOSS = _WORDS.cues("loss_line")
_GAIN = _WORDS.cues("gain_line")
_COST = _WORDS.cues("cost_line")
_NETTED = _WORDS.cues("netted_line")


def names_a_loss(label: str) -> bool:
    """The line is named for its loss or outflow alone ("Net loss", "Loss from operations", "Net
    cash used in operating activities", "Jahresfehlbetrag"), not for the gain as well ("Net income
    (loss)", "Net cash provided by (used in) …"), where the figure's own sign says which."""
    return _LOSS.found(label) and not _GAIN.found(label)


def names_a_cost(label: str) -> bool:
    """The line is named for what was spent alone ("Stock-based compensation expense", "Interest
    expense", "Restructuring charges"), not for a gain, a benefit or a net beside it ("Income tax
    expense (benefit)", "Other expense, net"): its amount is spent, however a reconciliation
    prints its deduction."""
    return _COST.found(label) and not _GAIN.found(label) and not _NETTED.found(label) \
        and not _LOSS.found(label)


def signed_as_named(value: float, label: str, row: Iterable[float] = ()) -> float:
    """A figure as its line means it: under a line named for its loss, negative whether it is
    printed "1,009" or "(1,009)"; as printed otherwise. A loss line whose `row` (its figures for
    the other periods) mixes signs prints each period's sign on purpose, so it keeps them."""
    if not names_a_loss(label):
        return value
    signs = {v < 0 for v in row if v}
    return value if len(signs) > 1 else -abs(value)


def loss_wording(wordings: Iterable[str]) -> str | None:
    """Of a line item's wordings, the first that names its loss ("net loss" of net income)."""
    return next((w for w in wordings if names_a_loss(w)), None)
