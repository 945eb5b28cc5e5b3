"""What the business depends on: its largest customers (share of revenue, the top N together, the
contract terms that protect them) and key people (who, in which role, with what stake, and which
key roles are empty).

Built from findings (a customer's share, a person's role, a holder's stake), table rows with their
headers and the sentences that state a dependency; each builder returns None when the room holds
nothing for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from manda.agent.compose.common import (
    Ask,
    Draft,
    approvals,
    cite_findings,
    current,
    largest_shares,
    qa_action,
    qa_offer,
    render_rows,
    role_hits,
    searched_phrase,
    tables_of,
)
from manda.agent.compose.people import missing_key_roles, team_members
from manda.agent.evidence import Evidence, Source
from manda.agent.grounding import cite
from manda.agent.selection import findings_for, show, subject_base
from manda.agent.topics import CUSTOMERS, KEY_PEOPLE
from manda.agent.unusual import sentences, trim
from manda.injection import looks_like_instruction
from manda.models import Finding, FindingKind
from manda.vocabulary import topic, vocabulary

_WORDS = vocabulary()
_CUSTOMER_HEADER = _WORDS.cues("customer_header").pattern
_SHARE_HEADER = _WORDS.cues("customer_share_header").pattern
_TOP = _WORDS.cues("top_group")
_REST_ROW = _WORDS.cues("customer_rest_row")
_CUSTOMER_SENTENCE = _WORDS.cues("customer_sentence")
_CONCENTRATION_SENTENCE = _WORDS.cues("concentration_sentence")
_WORDS = {"two": 2, "three": 3, "five": 5, "ten": 10}


# ---------------------------------------------------------------- customer concentration


def _shares(evidence: Evidence) -> list[Finding]:
    return [f for f in current(findings_for(evidence, "customer concentration"), evidence)
            if f.value is not None and f.unit == "%" and 0 < (f.value or 0) <= 100]


def customers(ask: Ask, evidence: Evidence) -> Draft | None:
    found = _shares(evidence)
    named = [f for f in found if f.entity and not _TOP.search(f.entity)]
    scoped = [f for f in found if f not in named and f.attributes.get("scope")]
    parts: list[str] = []
    rests: list[Finding] = []
    top: Finding | None = None
    if named:
        doc_id, ranked = largest_shares(named)
        top = ranked[0]
        # the answer first: who is largest and how much the top 3 weigh, then the table
        lead = f"{top.entity} is the largest customer, {show(top)} of revenue"
        if len(ranked) >= 3:
            total = sum(f.value or 0.0 for f in ranked[:3])
            lead += f"; the top 3 together {total:.0f}% (computed from the rows below)"
        parts += [f"{lead}. By share of revenue, from {evidence.filename(doc_id)}:", "",
                  "| Customer | Share of revenue | Source |", "|---|---|---|"]
        parts += [f"| {f.entity} | {show(f)} | {cite_findings([f], evidence)} |" for f in ranked]
        rests += ranked
    elif (table_part := _from_tables(evidence)) is not None:
        parts += table_part
    for f in _one_per_scope(scoped):
        what = f.attributes.get("scope") or f.label
        parts.append(f"- {what[:1].upper() + what[1:]}: {show(f)} {cite_findings([f], evidence)}")
        rests.append(f)
    statement = _concentration_statement(evidence, top)
    if statement is not None:
        parts += ["", f"As a document puts it: “{statement[0]}” {cite([statement[1]])}"]
    if top is not None and top.entity:
        parts += _protections(evidence, top.entity)
    if not parts:
        return None
    return Draft(text="\n".join(parts).strip(), proposals=approvals(rests), rests_on=rests)


def _one_per_scope(found: Sequence[Finding]) -> list[Finding]:
    seen: dict[str, Finding] = {}
    for f in found:
        seen.setdefault(f"{f.attributes.get('scope', '').lower()}|{f.value}", f)
    return list(seen.values())[:3]


def _from_tables(evidence: Evidence) -> list[str] | None:
    """A customer table (customer column, a share or revenue column) as the document lays it."""
    for table, hit in tables_of(role_hits(evidence, CUSTOMERS.roles)):
        if not (table.has_header(_CUSTOMER_HEADER) and table.has_header(_SHARE_HEADER)):
            continue
        rows = [r for r in table.rows if not _REST_ROW.begins(r.label)]
        if rows:
            source = evidence.hit_source(hit)
            return [f"Customers as {source.document} lists them {cite([source])}:", "",
                    *render_rows(table, rows[:10], source)]
    return None


def _concentration_statement(evidence: Evidence, top: Finding | None) -> tuple[str, Source] | None:
    """The sentence that states the concentration, naming the largest customer when known."""
    key = (top.entity or "").split()[0].lower() if top is not None and top.entity else ""
    best: tuple[int, str, Source] | None = None
    for hit in evidence.hits:
        doc = evidence.documents.get(hit.document_id)
        if doc is not None and doc.is_irl:
            continue
        for s in sentences(hit.text):
            if "|" in s or looks_like_instruction(s) or "%" not in s:
                continue
            if not _CUSTOMER_SENTENCE.found(s):
                continue
            score = (2 if key and key in s.lower() else 0) + s.count("%")
            score += 2 if _CONCENTRATION_SENTENCE.found(s) else 0
            if best is None or score > best[0]:
                best = (score, trim(s, 260), evidence.hit_source(hit))
    return (best[1], best[2]) if best and best[0] >= 3 else None


def _protections(evidence: Evidence, customer: str) -> list[str]:
    """The largest customer's contract: term, change of control, termination."""
    key = customer.split()[0].lower()
    contracts = [f for f in current(evidence.usable_findings(), evidence)
                 if (f.kind is FindingKind.CONTRACT or subject_base(f.subject) == "contract")
                 and key in (f.entity or f.subject).lower()]
    contracts.sort(key=lambda f: -sum(1 for v in f.attributes.values() if str(v).strip()))
    if not contracts:
        return []
    f = contracts[0]
    bits = [f.attributes.get("contract") or "agreement"]
    if f.attributes.get("term"):
        bits.append(f"term: {f.attributes['term']}")
    if any(c.attributes.get("change_of_control") == "yes" for c in contracts):
        bits.append("change-of-control clause")
    if f.attributes.get("termination"):
        bits.append(f"termination: {f.attributes['termination']}")
    return ["", f"**{customer}'s contract**: {'; '.join(bits)} "
                f"{cite_findings(contracts[:2], evidence)}"]


# ---------------------------------------------------------------- key people

_DEPENDENCY = topic("key_people")


def key_people(ask: Ask, evidence: Evidence) -> Draft | None:
    statements: list[tuple[str, Source]] = []
    for hit in role_hits(evidence, KEY_PEOPLE.roles):
        for s in sentences(hit.text):
            if ("|" in s or looks_like_instruction(s) or not _DEPENDENCY.stated.search(s)
                    or any(s == t for t, _ in statements)):
                continue
            statements.append((trim(s, 300), evidence.hit_source(hit)))
    members = team_members(evidence)
    said = " ".join(s for s, _ in statements).lower()
    named = [m for m in members if m[0].split()[-1].lower() in said]
    if not statements and not members:
        return None
    parts: list[str] = []
    if statements:
        parts += ["Key-person dependencies the documents state:",
                  *[f"- “{s}” {cite([src])}" for s, src in statements[:3]]]
    else:
        parts += [f"{searched_phrase(evidence, ask)}: no document states a dependency on "
                  "individual people."]
    stakes = _stakes(evidence)
    if named:
        parts += ["", "**The people named**"]
        for name, role, sources, _ in named:
            stake = stakes.get(name.lower())
            held = f"; holds {show(stake)} {cite_findings([stake], evidence)}" if stake else ""
            parts.append(f"- **{name}** — {role or 'no role stated'} {cite(sources)}{held}")
    missing = missing_key_roles(members)
    if members and missing:
        parts += ["", f"**Key roles no document names**: {' or '.join(missing)}."]
    question = _DEPENDENCY.question
    parts += ["", f"{qa_offer(language=ask.language)} (“{question}”)"]
    return Draft(text="\n".join(parts).strip(), proposals=[qa_action(question, "HR")],
                 offer_qa=True)


def _stakes(evidence: Evidence) -> dict[str, Finding]:
    """A person's % stake from the cap table, by lower-case name."""
    out: dict[str, Finding] = {}
    for f in current(findings_for(evidence, "ownership"), evidence):
        doc = evidence.documents.get(f.document_id)
        if (f.unit == "%" and f.value is not None and 0 < f.value <= 100 and doc is not None
                and doc.role.value == "cap_table" and f.entity):
            out.setdefault(f.entity.lower(), f)
    return out
