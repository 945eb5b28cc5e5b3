"""The topic questions every analyst asks, and which document roles and findings answer each.

"Who owns the company?", "Who is on the management team?", "Walk me through the P&L", "Is there
any litigation?": each is a deal topic with its own answer (a cap table with classes and %,
people with roles and the key roles missing, periods as columns …). The topics, their words in
every language, the roles that hold them and their searches are data (`manda.vocabulary`); this
module names the ones the composers answer in a shape of their own, and reads a question's
topic and roles from them.
"""

from __future__ import annotations

import re

from manda.finance.equivalents import group_key, named_in_other_languages
from manda.finance.facilities import facility_name
from manda.finance.vocabulary import find_line_items
from manda.models import DocumentRole
from manda.vocabulary import Topic, topic, topics, vocabulary

Shape = Topic  # a topic answered in a shape of its own

OWNERSHIP = topic("ownership")
MANAGEMENT = topic("management")
OVERVIEW = topic("overview")
PNL = topic("pnl")
DEBT = topic("debt")
CUSTOMERS = topic("customer_concentration")
COVENANTS = topic("covenants")
KEY_PEOPLE = topic("key_people")
LITIGATION = topic("litigation")
CONTRACTS = topic("contracts")
# Tried in the table's order when a question names more than one (most specific first).
SHAPES: tuple[Shape, ...] = tuple(t for t in topics() if t.composer is not None)

_WORDS = vocabulary()
PAY = _WORDS.cues("pay")  # a named person's pay: a census or payroll row
PAY_HEADER = _WORDS.cues("pay_header")
ROLE_WORDS = _WORDS.cues("role_titles")  # a role held by someone
_ROLE_ASK = _WORDS.cues("role_question")
_ROLE_TAIL = _WORDS.cues("role_tail")
# Key roles a management team is expected to have, with every way a document writes them.
KEY_ROLES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("CEO", _WORDS.cues("key_role_ceo").pattern),
    ("CFO", _WORDS.cues("key_role_cfo").pattern),
)
# Every role read with its equivalents (a Finance Director is the CFO, a Directeur des
# opérations the COO): the key roles and those a team may lack without a gap.
ROLE_EQUIVALENTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    *KEY_ROLES, ("COO", _WORDS.cues("key_role_coo").pattern))


def shape_for(question: str) -> Shape | None:
    """The topic shape a question asks for, if any (the first that matches, most specific first).

    A question that names a metric is a metric question, not a topic ("management's EBITDA
    estimate" is EBITDA); topics made of metrics (the P&L) are the exception."""
    named = [*find_line_items(question), *named_in_other_languages(question)]
    for shape in SHAPES:
        if any(not _inside_other_item(m.start(), m.end(), shape, named)
               for m in shape.asked.finditer(question)):
            if shape is COVENANTS and _WORDS.cues("facility_availability").search(question) \
                    and facility_name(question) is not None:
                return DEBT  # "headroom on the RCF" is what is left to draw, not a test
            return shape
    if _RUNS_COMPANY.search(question):  # "Wer leitet die Kessler GmbH?", "Quien dirige …?"
        return MANAGEMENT
    return None


_RUNS_COMPANY = _WORDS.cues("runs_company").accents_optional()


def _inside_other_item(start: int, end: int, shape: Shape,
                       named: list[tuple[str, int, int]]) -> bool:
    """The topic's word is part of a longer line item's name that is none of its subjects:
    "caja" in "flujo de caja libre", "trésorerie" in "flux de trésorerie disponible" ask for
    free cash flow, not for the cash and debt."""
    return any(a <= start and end <= b and (b - a) > (end - start) and subject not in
               shape.subjects for subject, a, b in named)


def asked_role(question: str) -> str | None:
    """The role a "who is the …?" question names ("Head of Sales", "CFO"), if any."""
    if not _ROLE_ASK.search(question):
        return None
    m = ROLE_WORDS.search(question)
    if m is None:
        return None
    role = m.group(0).strip()
    if role.lower() == "audits":  # "who audits the company?" asks for its auditor
        return "auditor"
    if (key := group_key(role.lower())) is not None:
        return key  # "its independent registered public accounting firm": the auditor
    for tail in _ROLE_TAIL.finditer(role):  # "Head of Sales and": the joining word goes
        if tail.end() == len(role) and tail.start() > 0 and role[tail.start() - 1].isspace():
            return role[:tail.start()].rstrip()
    return role


def roles_asked(question: str) -> tuple[DocumentRole, ...]:
    """The document roles a question's answer lives in (a shape's roles first)."""
    out: list[DocumentRole] = []
    shape = shape_for(question)
    if shape is not None:
        out += shape.roles
    if asked_role(question) is not None:
        out += MANAGEMENT.roles
    for role, cues in _WORDS.role_cues():
        if cues.search(question):
            out.append(role)
    return tuple(dict.fromkeys(out))
