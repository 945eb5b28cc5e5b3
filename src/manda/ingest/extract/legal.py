"""Contracts, litigation and key dates from legal prose.

Per section, sentences about one contract or one dispute are gathered by counterparty or claimant
(a sentence that names none continues the previous one), so "The MSA with Globex AG ... It may be
terminated on a change of control" becomes one contract finding with its change-of-control flag.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from manda.finance.amounts import find_amounts
from manda.finance.periods import find_dates, find_periods
from manda.ingest.extract.candidates import Candidate, SectionView
from manda.ingest.extract.dedupe import canonical_entity, is_placeholder
from manda.ingest.extract.excerpts import sentence_spans
from manda.ingest.extract.names import NAME, ORG, find_courts, find_orgs, is_person_name
from manda.models import FindingKind
from manda.vocabulary import cues, topic, vocabulary

__all__ = ["legal_candidates"]

_WORDS = vocabulary()
_LITIGATION_TOPICS = (topic("litigation"), topic("employment_claims"))
_CONTRACT = topic("contracts").terms | _WORDS.cues("contract_names")
_CONTRACT_NAME = re.compile(
    r"\b(?!(?:The|This|That|Its|An?|Such|Each|Any|All|No|These|Those)\b)[A-Z][\w\-]*"
    r"(?:\s+[\w\-]+){0,3}?\s+(?:[Aa]greements?|[Cc]ontracts?)\b|\bMSA\b"
)
_DENIES = _WORDS.cues("denies")
_DENIAL_REACH = 30  # "contains no change-of-control clause"
# "with Initech and Umbrella", "conclu avec Laiteries du Vercors": the counterparties after the
# language's "with" (`contract_with`), each of capitalised words and the small words inside a
# name (`name_links`), two joined by `party_and`
_AND = _WORDS.cues("party_and")
_NAME_LINKS = "|".join(re.escape(w) for w in sorted(
    (w for w in _WORDS.words("name_links") if w.isalpha() and not _AND.fullmatch(w)),
    key=len, reverse=True))
_PARTY = rf"[A-Z][\w&\-]+(?:\s+(?:(?:{_NAME_LINKS})\s+)?[A-Z][\w&\-]+){{0,2}}"
_WITH_PARTIES = re.compile(
    rf"(?i:\b{_WORDS.cues('contract_with').slot})\s+(?P<a>{_PARTY})(?:\s*\([^)]*\))?"
    rf"(?:\s+(?i:{_AND.slot})\s+(?P<b>{_PARTY}))?"
)
_REFERS_BACK = re.compile(
    r"^(?:It|The\s+(?:agreement|contract)|This|Such|Under\s+(?:the|this|it))\b"
)
_COC = topic("change_of_control").terms
_TERMINATION = _WORDS.cues("termination_right").around(tail=r"[^.;\n]{0,140}")
# a sentence about a dispute, and a heading over a section of them
_LITIGATION = cues(p for t in _LITIGATION_TOPICS for p in (*t.terms.phrases, *t.stated.phrases))
_LITIGATION_HEADING = cues(p for t in _LITIGATION_TOPICS for p in t.terms.phrases)
_PARTY = rf"(?:{ORG}|{NAME}|[A-Z][\w&\-]+(?:\s+[A-Z][\w&\-]+){{0,3}})"
_CLAIMANT = [
    _WORDS.cues("claim_verbs").around(head=rf"(?P<c>{_PARTY})(?:,\s[^,]{{1,60}},)?\s+"),
    _WORDS.cues("claim_by").around(tail=rf"\s+(?P<c>{_PARTY})"),
    _WORDS.cues("claimant_words").around(tail=rf"[,:]?\s+(?P<c>{_PARTY})"),
    _WORDS.cues("claim_nouns").around(tail=rf"\s+(?P<c>{_PARTY})"),
]
# where a dispute stands, tried in this order ("pending" before "dismissed")
_STATUS = [(_WORDS.cues(f"litigation_{status}"), status)
           for status in ("pending", "settled", "dismissed", "closed")]
_CLAIM_WORDS = _WORDS.cues("claim_amount")
_PRONOUNS = _WORDS.cues("pronouns")
_KEY_DATES = _WORDS.key_dates()
_FOUNDED = dict(_KEY_DATES)["founded"]
_FOUNDED_YEAR = _FOUNDED.around(tail=r"\s+(?:[^\W\d]+\s+){0,2}?(?P<y>(?:19|20)\d{2})\b")


def _is_target(name: str, view: SectionView) -> bool:
    return bool(view.target_hint) and canonical_entity(name).replace(" ", "").startswith(
        view.target_hint
    )


def _parties(text: str, start: int, end: int, view: SectionView,
             known: dict[str, str]) -> list[tuple[str, int, int]]:
    """Organisations in text[start:end], including known ones written without legal form."""
    found = [(n, s + start, e + start) for n, s, e in find_orgs(text[start:end])]
    for display in known.values():
        short = display.split()[0]
        for m in re.finditer(rf"\b{re.escape(short)}\b", text[start:end]):
            s = m.start() + start
            if not any(fs <= s < fe for _, fs, fe in found):
                found.append((display, s, s + len(short)))
    return sorted(
        ((n, s, e) for n, s, e in found if not is_placeholder(n) and not _is_target(n, view)),
        key=lambda t: t[1],
    )


@dataclass
class _Matter:
    """One contract or one dispute, gathered over consecutive sentences."""

    entity: tuple[str, int, int] | None
    first: tuple[int, int]
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    facts: dict[str, str] = field(default_factory=dict)
    amount: tuple[float, str | None, str, int, int] | None = None
    period: str | None = None


def _core(matter: _Matter, order: tuple[str, ...]) -> tuple[int, int]:
    for key in order:
        if key in matter.spans:
            return matter.spans[key]
    if matter.entity is not None:
        return matter.entity[1], matter.entity[2]
    return matter.first


def _sentence_at(spans: list[tuple[int, int]], pos: int) -> tuple[int, int] | None:
    return next(((s, e) for s, e in spans if s <= pos < e), None)


def _contracts(view: SectionView, spans: list[tuple[int, int]],
               known: dict[str, str]) -> list[Candidate]:
    text = view.text
    matters: dict[str, _Matter] = {}
    last: str | None = None
    for s, e in spans:
        sentence = text[s:e]
        if not (_CONTRACT.search(sentence) or _COC.search(sentence)):
            continue
        parties = _parties(text, s, e, view, known) or _named_with(text, s, e, view)
        if parties:
            keys = [(canonical_entity(p[0], "organisation"), p) for p in parties]
        elif last is not None and (_REFERS_BACK.match(sentence) or not _WITH_PARTIES.search(
                sentence)):
            keys = [(last, None)]
        else:
            keys = [("", None)]
        for key, party in keys:
            matter = matters.setdefault(key, _Matter(party, (s, e)))
            _contract_facts(matter, sentence, s)
        last = keys[0][0]
    out: list[Candidate] = []
    for key, matter in matters.items():
        if not matter.entity and "coc" not in matter.spans and "termination" not in matter.facts:
            continue
        name = matter.entity[0] if matter.entity else None
        contract = matter.facts.get("contract", "Contract")
        label = f"{contract} with {name}" if name and name not in contract else contract
        if "coc" in matter.spans:
            label += " — change-of-control clause"
        core = _core(matter, ("coc", "termination", "contract"))
        attributes = {
            "contract": contract,
            "change_of_control": matter.facts.get("change_of_control", "no"),
        }
        if "termination" in matter.facts:
            attributes["termination"] = matter.facts["termination"]
        out.append(Candidate(
            kind=FindingKind.CONTRACT,
            subject=f"contract:{key or 'unnamed'}",
            label=label,
            section=view.index,
            core=core,
            bounds=_sentence_at(spans, core[0]),
            anchor=(matter.entity[1], matter.entity[2]) if matter.entity else None,
            evidence="statement" if name else "narrative",
            entity=name,
            attributes=attributes,
        ))
    return out


def _named_with(text: str, start: int, end: int, view: SectionView
                ) -> list[tuple[str, int, int]]:
    """Counterparties named after "with" without a legal form: "with Initech and Umbrella"."""
    m = _WITH_PARTIES.search(text, start, end)
    if m is None:
        return []
    found = []
    for group in ("a", "b"):
        name = m.group(group)
        if name and not is_placeholder(name) and not _is_target(name, view):
            found.append((name, m.start(group), m.end(group)))
    return found


def _contract_facts(matter: _Matter, sentence: str, s: int) -> None:
    if (name := _CONTRACT_NAME.search(sentence)) and "contract" not in matter.facts:
        matter.facts["contract"] = name.group(0)
        matter.spans["contract"] = (s + name.start(), s + name.end())
    if (coc := _COC.search(sentence)) and "change_of_control" not in matter.facts:
        if _DENIES.search(sentence[max(0, coc.start() - _DENIAL_REACH): coc.start()]):
            matter.facts["change_of_control"] = "no"
        else:
            matter.facts["change_of_control"] = "yes"
            matter.spans["coc"] = (s + coc.start(), s + coc.end())
    if (term := _TERMINATION.search(sentence)) and "termination" not in matter.facts:
        matter.facts["termination"] = term.group(0).strip()
        matter.spans["termination"] = (s + term.start(), s + term.start() + 20)


def _claimant(sentence: str, offset: int, view: SectionView) -> tuple[str, int, int] | None:
    for pattern in _CLAIMANT:
        for m in pattern.finditer(sentence):
            name = m.group("c").strip()
            name = re.sub(r"^(?:The|A|An)\s+", "", name)
            if is_placeholder(name) or _is_target(name, view) or _PRONOUNS.fullmatch(name):
                continue
            if not (find_orgs(name) or is_person_name(name) or name[:1].isupper()):
                continue
            start = offset + m.start("c") + (len(m.group("c")) - len(m.group("c").lstrip()))
            start += m.group("c").strip().find(name)
            return name, start, start + len(name)
    return None


def _litigation(view: SectionView, spans: list[tuple[int, int]], used: set[int]
                ) -> list[Candidate]:
    text = view.text
    heading = f"{view.section.location.label} {text[:60]}"
    all_sentences = bool(_LITIGATION_HEADING.search(heading))
    matters: list[_Matter] = []
    for s, e in spans:
        sentence = text[s:e]
        if not (all_sentences and matters) and not _LITIGATION.search(sentence):
            continue
        claimant = _claimant(sentence, s, view)
        current = matters[-1] if matters else None
        if current is None or (claimant is not None and current.entity is not None
                               and canonical_entity(claimant[0]) != canonical_entity(
                                   current.entity[0])):
            current = _Matter(claimant, (s, e))
            matters.append(current)
        elif claimant is not None and current.entity is None:
            current.entity = claimant
        if current.amount is None:
            for a in find_amounts(sentence):
                if a.currency is None or a.unit is not None or (a.start + s) in used:
                    continue
                if _CLAIM_WORDS.search(sentence):
                    current.amount = (a.value, a.currency, a.text, a.start + s, a.end + s)
                    current.spans["amount"] = (a.start + s, a.end + s)
                    break
        if "court" not in current.facts and (courts := find_courts(sentence)):
            current.facts["court"] = courts[0][0]
        for pattern, status in _STATUS:
            if "status" not in current.facts and pattern.search(sentence):
                current.facts["status"] = status
        if current.period is None:
            stated = [p for p in find_periods(sentence)
                      if p[0].startswith("as of") and sentence[p[1] : p[1] + 2].lower() == "as"]
            current.period = stated[0][0] if stated else None
    out: list[Candidate] = []
    for matter in matters:
        if matter.entity is None and matter.amount is None:
            continue
        name = matter.entity[0] if matter.entity else None
        status = matter.facts.get("status", "")
        label = f"Litigation by {name}" if name else "Litigation"
        if matter.amount is not None:
            label += f" — {matter.amount[2]} claim"
        if status:
            label += f" ({status})"
        core = _core(matter, ("amount",))
        attributes = {"status": status}
        if "court" in matter.facts:
            attributes["court"] = matter.facts["court"]
        out.append(Candidate(
            kind=FindingKind.LITIGATION,
            subject=f"litigation:{canonical_entity(name)}" if name else "litigation",
            label=label,
            section=view.index,
            core=core,
            bounds=_sentence_at(spans, core[0]),
            anchor=(matter.entity[1], matter.entity[2]) if matter.entity else None,
            evidence="statement" if name and matter.amount else "narrative",
            period=matter.period,
            value=matter.amount[0] if matter.amount else None,
            unit=matter.amount[1] if matter.amount else None,
            value_text=matter.amount[2] if matter.amount else None,
            entity=name,
            attributes=attributes,
        ))
    return out


def _key_dates(view: SectionView, spans: list[tuple[int, int]],
               known: dict[str, str]) -> list[Candidate]:
    text = view.text
    out: list[Candidate] = []
    for s, e in spans:
        sentence = text[s:e]
        dates = [(sentence[ds:de], ds, de, d.isoformat()) for d, ds, de in find_dates(sentence)]
        if (year := _FOUNDED_YEAR.search(sentence)) is not None:
            dates.append((year.group("y"), year.start("y"), year.end("y"), ""))
        used: set[int] = set()
        parties = _parties(text, s, e, view, known) or _named_with(text, s, e, view)
        name = parties[0][0] if parties else None
        for event, pattern in _KEY_DATES:
            for hit in pattern.finditer(sentence):
                after = [d for d in dates if d[1] >= hit.end() and d[1] - hit.end() <= 25
                         and d[1] not in used]
                if not after:
                    continue
                shown, ds, de, iso = after[0]
                used.add(ds)
                out.append(_date_candidate(view, (s, e), event, hit, (shown, ds, de, iso), name))
                break
    return out


def _date_candidate(view: SectionView, sentence: tuple[int, int], event: str,
                    hit: re.Match[str], date: tuple[str, int, int, str], name: str | None
                    ) -> Candidate:
    s, e = sentence
    shown, ds, de, iso = date
    return Candidate(
        kind=FindingKind.DATE,
        subject=f"date:{event}" + (f":{canonical_entity(name)}" if name else ""),
        label=f"{event.capitalize()} date" + (f" ({name})" if name else "") + f": {shown}",
        section=view.index,
        core=(s + ds, s + de),
        bounds=(s, e),
        anchor=(s + hit.start(), s + hit.end()),
        evidence="statement",
        period=f"as of {iso}" if iso else None,
        value_text=shown,
        entity=name,
        attributes={"event": event, "date": iso or shown},
    )


def legal_candidates(view: SectionView, used: set[int]) -> list[Candidate]:
    """Contracts (counterparty, change of control, termination), disputes and key dates."""
    spans = sentence_spans(view.text)
    known = {
        canonical_entity(name, "organisation"): name for name, _, _ in find_orgs(view.text)
        if not _is_target(name, view)
    }
    return [
        *_contracts(view, spans, known),
        *_litigation(view, spans, used),
        *_key_dates(view, spans, known),
    ]
