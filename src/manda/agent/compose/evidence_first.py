"""Evidence-first answers: when no shape applies, lead with the passages that best answer it.

The sentences and table rows most relevant to the question are quoted with their sources (one to
three lines); "not found" is said only when retrieval confidence is below the calibrated
threshold, with what was searched and the offer to add the question to the Q&A list.
"""

from __future__ import annotations

import re
from dataclasses import replace

from manda.agent.compose.common import (
    Ask,
    Draft,
    no_data,
    qa_action,
    qa_offer,
    with_assumption,
)
from manda.agent.compose.lead_check import asked_years, guarded, lead_miss, states_figure
from manda.agent.compose.leads import fiscal_year, lead_lines
from manda.agent.compose.listed import named_things
from manda.agent.compose.portions import whole_of_portions
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.agent.relevance import CLOSE_BELOW, NOT_FOUND_BELOW, stems_of, term_in
from manda.agent.spans import Span, best_spans, fits_kind, rank_spans
from manda.agent.spans.ranking import states_period_asked
from manda.agent.unusual import sentences
from manda.finance.amounts import find_amounts
from manda.text import defined_terms, said_in
from manda.vocabulary import vocabulary


def answer(ask: Ask, evidence: Evidence, *, category: str = "General",
           why: str | None = None, must: str | None = None, limit: int = 3,
           prefer: re.Pattern[str] | None = None, spans: list[Span] | None = None) -> Draft:
    """The best span, leading, and up to `limit` - 1 runners-up, quoted and cited; "not found"
    only below the threshold. `prefer`: among the spans that answer, those it matches lead (a
    firm named in its role). `spans`: the ranked spans to answer from, where the caller kept
    only some (those naming a part of the company asked)."""
    why = why or vocabulary().answer("not_found_why", ask.language)
    ranked = rank_spans(ask.frame, evidence) if spans is None else spans
    if must:  # a named entity: spans of passages that name it (the next sentence may not)
        words = [w.lower() for w in must.split() if len(w) > 2]
        ranked = [s for s in ranked
                  if any(w in s.text.lower() or w in s.source.excerpt.lower() for w in words)]
    parts = [rank_spans(part, evidence) for part in ask.frame.asked_parts()]
    if span_confidence(ranked) < NOT_FOUND_BELOW and parts and \
            span_confidence(parts[0]) >= NOT_FOUND_BELOW:
        ranked = parts[0]  # the first thing asked is answered, whatever the rest asks
    if span_confidence(ranked) < NOT_FOUND_BELOW:
        closest = _from_role_documents(ask, evidence, ranked) or _closest(ask, evidence, ranked)
        if closest is not None:
            return closest
        return no_data(ask, evidence, why=why, category=category)
    if prefer is not None and (preferred := [s for s in ranked if prefer.search(s.text)]):
        ranked = [*preferred, *(s for s in ranked if s not in preferred)]
    elif (first := _first_asked(ask, parts)) is not None:
        ranked = [first, *(s for s in ranked if s.text != first.text)]
    ranked = _answering_first(ranked, ask, evidence)
    lead = _each_part(best_spans(ranked, limit=limit), parts, ask, limit)
    lines = lead_lines(lead, ask, evidence, ranked)
    if ask.frame.counted and lead and not any(fits_kind(s, ask.frame) for s in lead):
        # "how many employees": no passage read states a number of them; say so before the
        # closest passages, never let a sentence about headcount costs stand for the count
        things = " ".join(ask.frame.counted)
        lines = [vocabulary().answer("count_not_stated", ask.language, item=things),
                 *(line if line.startswith("- ") else f"- {line}" for line in lines)]
    elif lead:
        lines = guarded(lines, lead[0], ask)
    if lead and (whole := whole_of_portions(lead[0], ask, evidence, ranked)) is not None:
        lines = [*whole, *lines[2:]]  # for the row's lead and the row as stated
    if (named := named_things(ranked, ask)) is not None:
        lines = [named, *(line if line.startswith("- ") else f"- {line}" for line in lines)]
    return Draft(text=with_assumption(ask.assumption, "\n".join(lines)))


def _answering_first(ranked: list[Span], ask: Ask, evidence: Evidence) -> list[Span]:
    """Where the span that would lead states no figure of what is asked (`lead_miss`: another
    line item, another year, the whole year's where a quarter is asked, no figure; where a count
    or a quarter is asked, also no figure of the kind asked: "any specific number of shares" is
    no number of them), a close span that states it leads and the best one follows it:
    - a line of a table by period that states the very period asked ("Total 89,498" of the
      quarter a repurchase table's title names, over "During 2025, the Company repurchased 402
      million shares"); a line by period leads only so: a month's line is no year's figure;
    - else, save for a count asked, a span nearly as close, of the kind and a year asked (a
      count's check reads a number of the things counted, not what was done to them: "shares
      authorized" is no number of the shares repurchased)."""
    first = best_spans(ranked, limit=1)
    if not first:
        return ranked
    top, frame = first[0], ask.frame
    missed = lead_miss(top, ask) is not None
    if not missed and not ((frame.counted or frame.parts_of_year)
                           and not (fits_kind(top, frame) and states_figure(top.text))):
        return ranked
    found = next((s for s in ranked[:_PERIOD_LINES] if s is not top and s.by_period
                  and s.words >= NOT_FOUND_BELOW and states_period_asked(s, frame, evidence)
                  and lead_miss(s, ask) is None), None)
    if found is None and missed and not frame.counted:
        found = next((s for s in ranked[:_ANSWERING_REACH] if s is not top and not s.by_period
                      and s.words >= max(NOT_FOUND_BELOW, _ANSWERING_NEAR * top.words)
                      and fits_kind(s, frame) and lead_miss(s, ask) is None
                      and _of_a_year_asked(s, ask)), None)
    return ranked if found is None else [found, *(s for s in ranked if s is not found)]


_PERIOD_LINES = 12  # how far down the ranking a line of the period asked is looked for
_ANSWERING_REACH = 5  # how far down the ranking another span that answers is looked for
_ANSWERING_NEAR = 0.9  # how much of the best span's coverage of the question it must have


def _of_a_year_asked(span: Span, ask: Ask) -> bool:
    """A row whose columns are years states a figure of a year asked in one of them (a
    goodwill row of 2021 and 2020 is no balance at the end of 2019); a row whose columns name
    no year is of its table's period, and a sentence's years are checked by `lead_miss`."""
    years = asked_years(ask)
    if span.row is None or not years:
        return True
    dated = {fiscal_year(f.column) for f in span.figures() if f.value is not None} - {None}
    return not dated or bool(dated & years)


def _each_part(lead: list[Span], parts: list[list[Span]], ask: Ask, limit: int) -> list[Span]:
    """A question that asks two things ("how much cash, and how much of it sits abroad?"):
    the best span of each part the lead does not already state follows the lead, before the
    runners-up, when it is close and of the kind that part asks."""
    frames, at = ask.frame.asked_parts(), 1
    for frame, ranked in zip(frames[1:], parts[1:], strict=True):
        best = next((s for s in ranked[:3] if fits_kind(s, frame) or frame.answer_kind is None),
                    None)
        if best is None or best.words < CLOSE_BELOW or any(s.text == best.text for s in lead):
            continue
        lead = [*lead[:at], best, *lead[at:]][:max(limit, len(parts))]
        at += 1
    return lead


def _first_asked(ask: Ask, parts: list[list[Span]]) -> Span | None:
    """A question that asks two things ("What was net interest expense in 2025, and why did it
    increase?"): the best span of what it asks first leads, where one answers it closely and
    in the kind that part asks, whatever answers the whole question best (the reason)."""
    if len(parts) < 2 or not parts[0]:
        return None
    frame, best = ask.frame.asked_parts()[0], parts[0][0]
    if best.words < NOT_FOUND_BELOW or not (frame.answer_kind in (None, "list")
                                            or fits_kind(best, frame)):
        return None
    return best


def naming_part(ask: Ask, evidence: Evidence) -> list[Span]:
    """The ranked spans that name the part of the company asked ("Microsoft Cloud revenue
    increased 22%"), by its full name or the short name a passage defines for it ("Amazon Web
    Services (“AWS”)"); none where the question names no part."""
    part = ask.frame.named_part.lower()
    if not part:
        return []
    names = {part} | {short.lower() for hit in evidence.hits
                      for short, long in defined_terms(hit.text).items()
                      if long.lower().endswith(part)}
    if len(initials := [w[0] for w in part.split() if w[:1].isalpha()]) >= _INITIALS_FROM:
        names.add("".join(initials))  # "Amazon Web Services" is "AWS" wherever it is short
    # the spans kept name the part, by any of its names: its own words rank no further
    own = stems_of(ask.frame.named_part)
    ranking = replace(ask.frame.ranking,
                      terms=tuple(t for t in ask.frame.ranking.terms if not term_in(t, own)))
    return [s for s in rank_spans(replace(ask.frame, ranking=ranking), evidence)
            if any(said_in(name, f"{s.group} {s.text}".lower()) for name in names)]


_INITIALS_FROM = 3  # a name of this many words goes by its initials too ("AWS")


def span_confidence(ranked: list[Span]) -> float:
    """How sure retrieval is that a span answers: the best coverage of the question's words."""
    return max((s.words for s in ranked), default=0.0)


def _closest(ask: Ask, evidence: Evidence, ranked: list[Span]) -> Draft | None:
    """Below the bar, a span close to it and of the kind asked (a figure for "how much") leads
    as the closest passage, its runners-up after it, and the Q&A offer: not "not found" while
    the evidence may be in hand."""
    if span_confidence(ranked) < CLOSE_BELOW or not _of_kind(ranked[0], ask):
        return None
    best = best_spans(ranked, limit=3)
    lead, *others = lead_lines(best, ask, evidence, ranked)
    if (miss := lead_miss(best[0], ask)) is not None:
        others = [lead, *others]
        lead = vocabulary().answer(miss, ask.language, item=best[0].name() or best[0].text)
    lines = [lead]
    if others:
        lines += [vocabulary().answer("closest_span", ask.language), *others]
    q = ask.frame.qa_question
    lines.append(f"{qa_offer(language=ask.language)} (“{q}”)")
    return Draft(text=with_assumption(ask.assumption, "\n".join(lines)),
                 proposals=[qa_action(q, "General")], offer_qa=True)


def _of_kind(span: Span, ask: Ask) -> bool:
    """The span is the kind of answer asked; a question whose form names no kind (or things of a
    kind) but whose words ask for an amount ("what is the deal value of …", "what charges were
    recorded") wants one stated."""
    if ask.frame.answer_kind in (None, "list") and ask.frame.ranking.wants_amount:
        return bool(find_amounts(span.text))
    return fits_kind(span, ask.frame)


def _from_role_documents(ask: Ask, evidence: Evidence, ranked: list[Span]) -> Draft | None:
    """The room holds documents of the kind that answers this (minutes, a budget, a lease
    schedule): show what they say closest to it, never "not found", and offer Q&A."""
    roles = ask.frame.roles
    wanted = {d.id for d in evidence.documents.values() if d.role in roles}
    if not wanted:
        return None
    near = [p for p in ranked if p.source.document_id in wanted]
    if not near:
        hits = [h for h in evidence.hits if h.document_id in wanted]
        if not hits:
            return None
        near = [Span(s, evidence.hit_source(hits[0]))
                for s in sentences(hits[0].text)[:2] if len(s) > 20]
    if not near:
        return None
    kind = evidence.documents[near[0].source.document_id].role.value.replace("_", " ")
    lines = [vocabulary().answer("closest_in_role", ask.language,
                                 document=near[0].source.document, kind=kind)]
    lines += [f"- “{p.text}” {cite([p.source])}" for p in near[:2]]
    q = ask.frame.qa_question
    lines.append(f"{qa_offer(language=ask.language)} (“{q}”)")
    return Draft(text=with_assumption(ask.assumption, "\n".join(lines)),
                 proposals=[qa_action(q, "General")], offer_qa=True)
