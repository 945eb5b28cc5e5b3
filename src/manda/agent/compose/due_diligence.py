"""due_diligence: contradictions, corrections, unusual items and gaps; an offer to add to Q&A."""

from __future__ import annotations

from manda.agent.compose.common import (
    Ask,
    Draft,
    approvals,
    cite_findings,
    no_data,
    qa_action,
    qa_offer,
    said_in,
)
from manda.agent.compose.timeline import upcoming_lines
from manda.agent.evidence import Evidence
from manda.agent.gaps import Coverage
from manda.agent.grounding import cite
from manda.agent.redflags import RedFlag, headline_amount, lead, ordered
from manda.agent.relevance import NOT_FOUND_BELOW, best, confidence, rank
from manda.agent.selection import (
    Reading,
    in_text,
    is_clean,
    read_fact,
    show,
    subject_base,
    subject_label,
)
from manda.agent.translate import document_basis, period_name
from manda.agent.unusual import TOPICS, instructions_in, scan
from manda.models import Finding, FindingKind, RelationType
from manda.vocabulary import topic, vocabulary

MAX_GAPS_LISTED = 8


def _pairs(evidence: Evidence, type_: RelationType) -> list[tuple[str, str | None]]:
    """(subject, period) of every relation of `type_`, in first-seen order."""
    seen: list[tuple[str, str | None]] = []
    for rel in evidence.relations:
        if rel.type is not type_ or rel.between != "finding":
            continue
        a, b = evidence.findings.get(rel.source_id), evidence.findings.get(rel.target_id)
        if a is None or b is None or not (is_clean(a) and is_clean(b)):
            continue
        key = (a.subject, a.period)
        if key not in seen:
            seen.append(key)
    return seen


def _entity(subject: str) -> str | None:
    _, _, rest = subject.partition(":")
    return rest or None


def _one_source(finding: Finding, evidence: Evidence) -> str:
    """A figure's single source: the place its finding was read from."""
    return cite_findings([finding], evidence)


def contradictions(evidence: Evidence) -> list[tuple[Reading, str]]:
    out = []
    for subject, period in _pairs(evidence, RelationType.CONTRADICTS):
        reading = read_fact(evidence, subject, period, entity=_entity(subject))
        if reading is None or not reading.conflicts:
            continue
        parts = [f"{show(reading.primary)} {_one_source(reading.primary, evidence)}"]
        for other in reading.conflicts:
            basis = document_basis(other, evidence)
            note = f", {basis}" if basis == "a preliminary estimate" else ""
            parts.append(f"{show(other)}{note} {_one_source(other, evidence)}")
        label = f"{reading.label} {period_name(period)}".strip()
        out.append((reading, f"- **{label}**: " + " vs ".join(parts)
                    + " — the documents conflict."))
    return out


def corrections(evidence: Evidence) -> list[tuple[Reading, str]]:
    out = []
    for subject, period in _pairs(evidence, RelationType.SUPERSEDES):
        reading = read_fact(evidence, subject, period, entity=_entity(subject))
        if reading is None or not reading.corrected_from:
            continue
        old = reading.corrected_from[0]
        what = "revised" if reading.is_forecast else "corrected"
        label = f"{reading.label} {period_name(period)}".strip()
        out.append((reading, (
            f"- **{label}**: {show(old)} {_one_source(old, evidence)} was {what} to "
            f"{show(reading.primary)} {_one_source(reading.primary, evidence)}."
            + (" This is a forecast, not an actual." if reading.is_forecast else "")
        )))
    return out


def gap_lines(coverage: Coverage | None) -> tuple[list[str], list[tuple[str, str]]]:
    if coverage is None or not coverage.gaps:
        return [], []
    where = f"the IRL ({coverage.irl_document})" if coverage.origin == "irl" else \
        "the default due-diligence checklist"
    lines = [f"{coverage.total - coverage.covered} of {coverage.total} items of {where} have "
             f"no document in the room" + (f" {cite(coverage.irl_sources[:1])}"
                                            if coverage.irl_sources else "") + ":"]
    questions = []
    for entry in coverage.gaps[:MAX_GAPS_LISTED]:
        flag = f" (marked “{entry.item.status}” in the IRL)" if entry.status_mismatch else ""
        lines.append(f"- {entry.item.category}: {entry.item.title}{flag}")
        questions.append((entry.item.question, entry.item.category))
    if len(coverage.gaps) > MAX_GAPS_LISTED:
        lines.append(f"- … and {len(coverage.gaps) - MAX_GAPS_LISTED} more (`/gaps` lists all).")
    return lines, questions


def compose(ask: Ask, evidence: Evidence) -> Draft:
    focus = ask.frame.focus
    if focus:
        return _focused(ask, evidence, focus)
    return _report(ask, evidence)


def _focused(ask: Ask, evidence: Evidence, focus: tuple[str, ...]) -> Draft:
    """A risk question about one thing: what the room says on it, or "not found" and Q&A."""
    shaped = _topic_first(ask, evidence)
    if shaped is not None:
        return shaped
    about = " ".join(focus)
    asked = ask.frame.flag_topics
    parts: list[str] = []
    rests: list[Finding] = []
    questions: list[tuple[str, str]] = []
    for item in scan(evidence):
        if item.topic in asked:
            parts.append(f"- **{item.topic.flag_label}**: {item.statement} {cite([item.source])}")
            questions.append((item.topic.question, item.topic.category))
    subjects = set(ask.frame.subjects)
    for reading, line in [*contradictions(evidence), *corrections(evidence)]:
        if subject_base(reading.subject) in subjects:
            parts.append(line)
            rests.append(reading.primary)
    ranked = rank(evidence, ask.frame.focus_ranking)
    if confidence(ranked) >= NOT_FOUND_BELOW:
        shown = {line.split(" (source")[0] for line in parts}
        for passage in best(ranked, limit=3):
            if any(passage.text[:60] in line for line in shown):
                continue
            parts.append(f"- {passage.text} {cite([passage.source])}")
    if not parts:
        category = asked[0].category if asked else "General"
        return no_data(ask, evidence, category=category,
                       why=f"no document in the room addresses {about}.")
    questions = questions or [(ask.frame.qa_question, "General")]
    unique = list(dict.fromkeys(questions))
    text = "\n".join([f"On {about}, the documents say:", *parts, "",
                      qa_offer(len(unique), ask.language)])
    return Draft(text=text, proposals=[qa_action(qq, c) for qq, c in unique] + approvals(rests),
                 offer_qa=True, rests_on=rests)


def _topic_first(ask: Ask, evidence: Evidence) -> Draft | None:
    """"Any customer concentration we should worry about?": the topic's own answer first (the
    customer table, the covenant tests), then what the checks flag on it and the Q&A offer,
    instead of a list of statements about it."""
    from manda.agent.compose import topics

    shape = ask.frame.topic
    if shape is None or (ask.frame.subjects and not shape.of_metrics):
        return None
    draft = topics.compose(ask, evidence, shape)
    if draft is None:
        return None
    asked = ask.frame.flag_topics
    flagged: list[str] = []
    questions: list[tuple[str, str]] = []
    for item in scan(evidence):
        if item.topic in asked:
            questions.append((item.topic.question, item.topic.category))
            if item.statement not in draft.text and cite([item.source]) not in draft.text:
                flagged.append(f"- **{item.topic.flag_label}**: {item.statement} "
                               f"{cite([item.source])}")
    subjects = set(ask.frame.subjects)
    rests = list(draft.rests_on)
    for reading, line in [*contradictions(evidence), *corrections(evidence)]:
        if subject_base(reading.subject) in subjects and line not in draft.text:
            flagged.append(line)
            rests.append(reading.primary)
    parts = [draft.text]
    if flagged:
        parts += ["", "**Flagged**", *flagged]
    unique = list(dict.fromkeys(questions))
    if unique:
        parts += ["", qa_offer(len(unique), ask.language)]
    return Draft(text="\n".join(parts),
                 proposals=[*draft.proposals, *(qa_action(q, c) for q, c in unique)],
                 offer_qa=bool(unique) or draft.offer_qa, rests_on=rests)


def _body(line: str) -> str:
    """A listed line without its `- **label**: ` start."""
    return line.split("**: ", 1)[1] if "**: " in line else line.removeprefix("- ")


def red_flags(evidence: Evidence) -> tuple[list[RedFlag], list[Finding],
                                             list[tuple[str, str]]]:
    """Every red flag the evidence shows, most serious first; the findings they rest on; the
    Q&A questions they raise."""
    flags: list[RedFlag] = []
    rests: list[Finding] = []
    questions: list[tuple[str, str]] = []
    for reading, line in contradictions(evidence):
        label = f"{reading.label} {period_name(reading.period)}".strip()
        flags.append(RedFlag("conflict", f"Conflicting figures, {label}", _body(line),
                             f"conflict {label}"))
        rests.append(reading.primary)
        questions.append((
            f"Please reconcile {in_text(reading.label)} for {period_name(reading.period)}: "
            + " vs ".join(f"{show(f)} ({evidence.filename(f.document_id)})"
                          for f in [reading.primary, *reading.conflicts]) + ".",
            "Financial"))
    for reading, line in corrections(evidence):
        label = f"{reading.label} {period_name(reading.period)}".strip()
        kind, title = (("forecast_revision", "Forecast revised") if reading.is_forecast
                       else ("restatement", "Restated"))
        flags.append(RedFlag(kind, f"{title}, {label}", _body(line), f"{kind} {label}"))
        rests.append(reading.primary)
    for item in scan(evidence):
        flags.append(RedFlag(item.topic.key, item.topic.flag_label,
                             f"{item.statement} {cite([item.source])}", item.statement,
                             headline_amount(item.statement)))
        questions.append((item.topic.question, item.topic.category))
    for finding in taken_from_grids(evidence):
        kind = finding.attributes["red_flag"]
        label = topic(kind).flag_label if kind in {t.key for t in TOPICS} else \
            kind.replace("_", " ")
        shown = f"{finding.value_text} — " if finding.value_text else ""
        flags.append(RedFlag(kind, label, f"{evidence.filename(finding.document_id)}: {shown}"
                             f"“{finding.excerpt}” {cite([evidence.finding_source(finding)])}",
                             f"grid {finding.id}"))
        rests.append(finding)
    for found in instructions_in(evidence):
        flags.append(RedFlag(
            "instruction", "Text addressed to AI assistants",
            f"in {found.source.document}: a paragraph tries to instruct an assistant about what "
            f"to report. It was treated as document text and not followed {cite([found.source])}.",
            f"instruction {found.source.document} {found.source.location}", after_label=" "))
    return ordered(flags), rests, questions


def taken_from_grids(evidence: Evidence) -> list[Finding]:
    """Review-grid cells a person took as red flags (a column's "yes" cells: `red_flag`)."""
    return [f for f in evidence.usable_findings()
            if f.kind is FindingKind.CLAUSE and f.attributes.get("red_flag")]


def _report(ask: Ask, evidence: Evidence) -> Draft:
    words = vocabulary()
    flags, rests, questions = red_flags(evidence)
    parts: list[str] = []
    if flags:
        parts += [lead(flags, ask.language), "", words.answer("red_flags_heading", ask.language),
                  *[f.line for f in flags], ""]

    ahead = upcoming_lines(evidence)
    if ahead:
        as_of = getattr(evidence.timeline, "as_of", None)
        when = f" of {as_of:%-d %B %Y}" if as_of else ""
        parts += [words.answer("coming_up_heading", ask.language, when=when), *ahead, ""]

    lines, gap_questions = gap_lines(evidence.coverage)  # type: ignore[arg-type]
    if lines:
        if not flags:
            parts += [words.answer("no_red_flags", ask.language), ""]
        parts += [words.answer("gaps_heading", ask.language), *lines, ""]
        questions += gap_questions

    if not parts:
        searched = "; ".join(said_in(s, ask.language) for s in evidence.searched[:5]) or \
            words.answer("searched_nothing", ask.language)
        return Draft(
            text=words.answer("no_issues_found", ask.language, searched=searched),
            proposals=[qa_action(words.answer("undisclosed_question", ask.language), "General")],
            offer_qa=True,
        )
    unique: list[tuple[str, str]] = list(dict.fromkeys(questions))
    parts.append(qa_offer(len(unique), ask.language))
    proposals = [qa_action(q, c) for q, c in unique] + approvals(rests)
    return Draft(text="\n".join(parts).strip(), proposals=proposals, offer_qa=True,
                 rests_on=rests)


__all__ = ["compose", "subject_label"]
