"""The filings answer key (evals/retrieval/filings_answers.json) and how an answer is checked.

A key names, per question, the facts a correct answer states, each as alternatives; an
alternative matches as whole words (case-insensitive) or, when it is a figure, as the same amount
written another way ($416,161 million, $416.2bn, 416.16 billion) to the precision the less precise
of the two states. Used by bench/filings_answers.py and tests/retrieval/test_filings_answers.py.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from manda.answers import Answer
from manda.finance.amounts import Amount, find_amounts, same_as_written

REPO = Path(__file__).resolve().parents[1]
ANSWER_KEY = REPO / "evals" / "retrieval" / "filings_answers.json"

# what the offline composer and Claude say when nothing answers (agent/compose/common.py: no_data)
_NOT_FOUND = re.compile(
    r"found nothing that answers|no document (?:in the room )?states|could not find|"
    r"couldn't find|not (?:found|stated) in (?:the|any) document", re.IGNORECASE)
_MARKUP = re.compile(r"[*_`>#]+|[®™]")


@dataclass(frozen=True)
class Key:
    """What a correct answer to one question states, and where the evidence is."""

    id: str
    document: str
    pages: tuple[int, ...]
    facts: tuple[tuple[str, ...], ...]  # every fact, each a tuple of accepted alternatives
    # a computed answer's formula ("operating cash flow - capex"): its first fact is the result,
    # which no page states; the other facts are the inputs, which the evidence pages do state
    computed: str = ""


def load_key(path: Path = ANSWER_KEY) -> dict[str, Key]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["answers"]
    return {
        qid: Key(qid, entry["document"], tuple(entry["pages"]),
                 tuple(tuple(alts) for alts in entry["facts"]), entry.get("computed", ""))
        for qid, entry in data.items()
    }


def _normalise(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u00a0", " ")
    return " ".join(_MARKUP.sub("", text).split()).lower()


def same_figure(key: Amount, said: Amount) -> bool:
    """The same amount up to the precision the less precise of the two states (sign aside)."""
    if (key.unit == "%") != (said.unit == "%"):
        return False
    if key.currency and said.currency and key.currency != said.currency:
        return False
    return same_as_written(key.value, key.text, said.value, said.text)


def states(text: str, alternative: str) -> bool:
    """Whether `text` states `alternative`: as whole words, or as the same figure."""
    plain, wanted = _normalise(text), _normalise(alternative)
    if re.search(rf"(?<!\w){re.escape(wanted)}(?!\w)", plain):
        return True
    keyed = find_amounts(alternative)
    if len(keyed) != 1 or not (keyed[0].currency or keyed[0].unit
                               or re.search(r"[a-z]", keyed[0].text, re.IGNORECASE)):
        return False  # a bare number ("129", "10,000") counts only as written
    return any(same_figure(keyed[0], said) for said in find_amounts(text))


def states_fact(text: str, alternatives: tuple[str, ...]) -> bool:
    return any(states(text, alt) for alt in alternatives)


def first_line(answer: str) -> str:
    """The answer's lead: its first line with words in it (a heading or rule is skipped)."""
    for line in answer.splitlines():
        if re.search(r"[A-Za-z0-9]", _MARKUP.sub("", line)):
            return line.strip()
    return ""


def says_not_found(answer: str) -> bool:
    return _NOT_FOUND.search(answer) is not None


@dataclass(frozen=True)
class Score:
    """One answer against its key."""

    id: str
    split: str
    in_answer: bool  # every fact stated somewhere in the answer
    in_first_line: bool  # the first fact stated in the first line
    cites_document: bool  # a citation of the evidence document
    cites_page: bool  # … at an evidence page (or the document, where citations have no page)
    not_found: bool  # the answer says nothing answers it
    first: str
    wrong_figure: bool = False  # the lead states a figure, and not the one asked for


    @property
    def right(self) -> bool:
        """What a deal team checks first: the figure leads, and the evidence page is cited."""
        return self.in_first_line and self.in_answer and self.cites_page


def score(key: Key, split: str, answer: Answer) -> Score:
    text = answer.answer
    lead = first_line(text)
    on_document = [c for c in answer.citations if c.document == key.document]
    return Score(
        id=key.id,
        split=split,
        in_answer=all(states_fact(text, alts) for alts in key.facts),
        in_first_line=bool(key.facts) and states_fact(lead, key.facts[0]),
        cites_document=bool(on_document),
        cites_page=any(c.page is None or c.page in key.pages for c in on_document),
        not_found=says_not_found(text),
        first=lead,
        wrong_figure=states_wrong_figure(lead, key),
    )


def states_wrong_figure(lead: str, key: Key) -> bool:
    """The lead gives figures for a question whose answer is a figure, and none of them is it:
    a wrong amount stated for the metric asked ("Revenue was $4.4 billion" for AWS revenue, a
    quoted sentence whose only figure is another one). A lead that states no figure, states
    the right one beside others (the prior year, the change), or says nothing answers (its
    count of documents searched is no figure of the metric), is not wrong."""
    if not key.facts or not any(_is_figure(alt) for alt in key.facts[0]):
        return False
    if says_not_found(lead):
        return False  # "I searched the 6 documents …": a count of what was searched
    said = find_amounts(lead)
    if not said or states_fact(lead, key.facts[0]):
        return False
    return not any(states(a.text, alt) for a in said for alts in key.facts for alt in alts)


def _is_figure(alternative: str) -> bool:
    return len(find_amounts(alternative)) == 1
