"""The Claude `SlideDrafter`: a slide as structured output, checked line by line against sources.

Claude gets the section, the buyer and the numbered evidence, and answers with one `write_slide`
call. Every bullet, figure row and note is put through the grounding gate (`cim.gate`); a slide
with unsupported lines is sent back once with the list (as the tool's error result), then what
still fails is removed and said in the speaker notes. Turns that did not end normally are handled
as Anthropic documents (https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons):
`max_tokens` is asked again with a larger cap (the tool input may be cut mid-argument, so it is
never used), `refusal` and a full context window fall back. An outage (rate limit, overload,
timeout: `ModelUnavailableError` after the SDK's retries) or a rejected request falls back too:
that section is drafted extractively, and the thread is told why.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, ValidationError

from manda.agent.context import AgentContext
from manda.agent.evidence import Evidence
from manda.agent.grounding import cite
from manda.cim.drafting import (
    MAX_BULLETS,
    MIN_BULLETS,
    cite_source,
    extractive_slide,
    finding_notes,
    gather_evidence,
    ground_slide,
    section_subjects,
)
from manda.cim.gate import Line, line_problems, superseded_values
from manda.cim.model import Bullet, BuyerPersona, FigureRow, OutlineSection, SlideDraft
from manda.cim.prompts import SYSTEM, WRITE_SLIDE, Catalogue, send_back_message, slide_request
from manda.llm.calls import SLIDE
from manda.llm.port import (
    CONTEXT_WINDOW_EXCEEDED,
    MAX_TOKENS,
    REFUSAL,
    ChatMessage,
    ChatModel,
    ModelRequestError,
    ModelTurn,
    ModelUnavailableError,
    TokenUsage,
    ToolResult,
)
from manda.text import count_of

__all__ = ["ClaudeDrafter", "DraftReport"]

log = logging.getLogger(__name__)

# A slide's tool call is short; the room Claude thinks in first comes on top (`calls.SLIDE`). A
# cut-off call cannot be continued (its input may stop mid-argument): it is asked again with more.
SLIDE_TOKENS = 4096


class _Ids(BaseModel):
    model_config = ConfigDict(extra="ignore")
    evidence: list[str] = []


class _Text(_Ids):
    text: str


class _Value(BaseModel):
    model_config = ConfigDict(extra="ignore")
    period: str
    value: str


class _Figure(_Ids):
    label: str
    values: list[_Value]


class SlideInput(BaseModel):
    """The `write_slide` input, as its schema promises it."""

    model_config = ConfigDict(extra="ignore")
    title: str = ""
    bullets: list[_Text]
    figures: list[_Figure] = []
    notes: list[_Text] = []


class _Fallback(Exception):
    """The model cannot give this section a slide; the notice says why, for the thread."""

    def __init__(self, notice: str) -> None:
        super().__init__(notice)
        self.notice = notice


@dataclass
class DraftReport:
    """What the last `draft` did: model turns, tokens, lines sent back and removed, fallback."""

    turns: int = 0
    usage: TokenUsage = field(default_factory=TokenUsage)
    sent_back: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    fallback: str | None = None


class ClaudeDrafter:
    """`SlideDrafter` over the model port (Claude at the composition root, a fake in tests)."""

    def __init__(self, *, model: ChatModel, max_tokens: int = SLIDE_TOKENS) -> None:
        self._model = model
        self._max_tokens = max_tokens
        self.name = model.name
        self.last = DraftReport()

    async def draft(self, ctx: AgentContext, deal_id: str, section: OutlineSection,
                    persona: BuyerPersona | None = None) -> SlideDraft:
        self.last = DraftReport()
        evidence = await gather_evidence(ctx, deal_id, section)
        catalogue = Catalogue.build(evidence, section_subjects(section))
        try:
            draft = await self._written(ctx, section, persona, evidence, catalogue)
        except _Fallback as stop:
            log.warning("CIM section %s drafted extractively: %s", section.id, stop.notice)
            self.last.fallback = stop.notice
            draft = extractive_slide(evidence, section)
            return draft.model_copy(update={"notice": stop.notice})
        return draft

    # ------------------------------------------------------------ the model

    async def _written(self, ctx: AgentContext, section: OutlineSection,
                       persona: BuyerPersona | None, evidence: Evidence, catalogue: Catalogue
                       ) -> SlideDraft:
        messages = [ChatMessage(role="user", text=slide_request(section, persona, catalogue))]
        turn = await self._turn(ctx, messages)
        slide, problems = self._checked(turn, section, evidence, catalogue)
        if problems:
            self.last.sent_back = problems
            log.info("CIM section %s sent back once: %s", section.id, problems)
            messages += [turn.as_message(), _send_back(turn, problems)]
            try:
                again = await self._turn(ctx, messages)
            except _Fallback:
                if slide is None:
                    raise
            else:
                second, problems = self._checked(again, section, evidence, catalogue)
                slide = second or slide
            if slide is None:
                raise _Fallback("Claude did not return the slide in the expected form; this "
                                "slide is drafted from the extracted findings")
        assert slide is not None
        return self._kept(slide, section, evidence, catalogue)

    async def _turn(self, ctx: AgentContext, messages: list[ChatMessage]) -> ModelTurn:
        """One usable turn: a cut-off one is asked again with twice the cap, up to the limit."""
        cap = self._max_tokens
        while True:
            try:
                turn = await self._model.respond(SYSTEM, messages, [WRITE_SLIDE],
                                                 max_tokens=cap, call=SLIDE)
            except ModelUnavailableError as exc:
                raise _Fallback(f"Claude was unavailable ({exc.reason}); this slide is drafted "
                                "from the extracted findings — say *regenerate* to try again"
                                ) from exc
            except ModelRequestError as exc:
                raise _Fallback(f"{exc.message.rstrip('.')}; this slide is drafted from the "
                                "extracted findings (`manda doctor` checks the model)") from exc
            self.last.turns += 1
            self.last.usage.add(turn.usage)
            if turn.stop_reason == MAX_TOKENS:
                raised = min(cap * 2, ctx.limits.max_answer_tokens)
                if raised <= cap:
                    raise _Fallback(f"Claude's slide did not fit {cap} output tokens; this "
                                    "slide is drafted from the extracted findings")
                log.info("CIM slide cut at %d tokens: asking again with %d", cap, raised)
                cap = raised
                continue
            if turn.stop_reason == REFUSAL:
                raise _Fallback("Claude declined to draft this section; it is drafted from "
                                "the extracted findings")
            if turn.stop_reason == CONTEXT_WINDOW_EXCEEDED:
                raise _Fallback("this section's evidence did not fit Claude's context window; "
                                "it is drafted from the extracted findings")
            return turn

    # ------------------------------------------------------------ the gate

    def _checked(self, turn: ModelTurn, section: OutlineSection, evidence: Evidence,
                 catalogue: Catalogue) -> tuple[_Slide | None, list[str]]:
        """The slide the turn wrote with every line's problems; None when it wrote none."""
        calls = [c for c in turn.tool_calls if c.name == WRITE_SLIDE.name]
        if not calls:
            return None, [f"Answer by calling {WRITE_SLIDE.name} with the whole slide."]
        try:
            data = SlideInput.model_validate(calls[-1].arguments)
        except ValidationError as exc:
            return None, [f"The {WRITE_SLIDE.name} input does not match its schema "
                          f"({exc.error_count()} errors): send title, bullets, figures and "
                          "notes as the schema says."]
        slide = _Slide.read(data, catalogue)
        corrected = superseded_values(evidence)
        problems: list[str] = []
        for line in slide.lines():
            slide.problems[id(line)] = line_problems(line, evidence, corrected)
            problems += [f"{line.name}: {p}" for p in slide.problems[id(line)]]
        if len(slide.bullets) < MIN_BULLETS and len(catalogue.sources) >= MIN_BULLETS:
            problems.append(f"The slide has {len(slide.bullets)} bullet(s): write "
                            f"{MIN_BULLETS} to {MAX_BULLETS}.")
        return slide, problems

    def _kept(self, slide: _Slide, section: OutlineSection, evidence: Evidence,
              catalogue: Catalogue) -> SlideDraft:
        """The slide without the lines that still fail, each removal said in the notes."""
        removed = [line for line in slide.lines() if slide.problems.get(id(line))]
        self.last.removed = [f"{line.name}: {'; '.join(slide.problems[id(line)])}"
                             for line in removed]
        gone = {id(line) for line in removed}
        bullets = [Bullet(text=b.text, citations=[cite_source(s, evidence, focus=b.text)
                                                  for s in b.sources])
                   for b in slide.bullets[:MAX_BULLETS] if id(b) not in gone]
        figures = [FigureRow(label=f.label, values=slide.values[id(f)],
                             citations=[cite_source(s, evidence, focus=f.text)
                                        for s in f.sources])
                   for f in slide.figures if id(f) not in gone]
        kept_notes = [n for n in slide.notes if id(n) not in gone]
        notes = [f"{n.text} {cite(n.sources)}".strip() for n in kept_notes]
        noted = {s.finding_id for n in kept_notes for s in n.sources if s.finding_id}
        used = [s.finding_id for item in [*slide.bullets, *slide.figures] if id(item) not in gone
                for s in item.sources if s.finding_id]
        said: set[str] = set()
        for finding_id in dict.fromkeys(used):
            notes += finding_notes(evidence.findings[finding_id], evidence, noted=noted,
                                   said=said)
            said.add(finding_id)
        for line in removed:
            if line.kind == "title":
                continue
            notes.append(f"Removed from Claude's draft, not supported by its sources: "
                         f"{line.kind} “{line.text}” ({'; '.join(slide.problems[id(line)])})")
        if len(bullets) < MIN_BULLETS:
            notes.append(f"Only {count_of(len(bullets), 'supported statement')} on this topic; "
                         "consider merging this section or asking the seller.")
        title = slide.title.text.strip() if slide.title and id(slide.title) not in gone else ""
        draft = SlideDraft(section_id=section.id, title=title or section.title, bullets=bullets,
                           figures=figures, notes=list(dict.fromkeys(notes)),
                           drafted_by=self.name)
        return ground_slide(draft)


@dataclass
class _Slide:
    """A `write_slide` input as gate lines, with each line's problems."""

    title: Line | None
    bullets: list[Line]
    figures: list[Line]
    notes: list[Line]
    values: dict[int, dict[str, str]] = field(default_factory=dict)  # figure line -> values
    problems: dict[int, list[str]] = field(default_factory=dict)

    @classmethod
    def read(cls, data: SlideInput, catalogue: Catalogue) -> _Slide:
        def line(kind: str, n: int, text: str, ids: list[str]) -> Line:
            wanted = [i.strip().strip("[]") for i in ids]
            return Line(kind=kind, number=n, text=" ".join(text.split()),  # type: ignore[arg-type]
                        sources=[catalogue.sources[i] for i in dict.fromkeys(wanted)
                                 if i in catalogue.sources],
                        unknown_ids=[i for i in wanted if i not in catalogue.sources])

        slide = cls(
            title=line("title", 1, data.title, []) if data.title.strip() else None,
            bullets=[line("bullet", n, b.text, b.evidence)
                     for n, b in enumerate(data.bullets, start=1) if b.text.strip()],
            figures=[], notes=[line("note", n, t.text, t.evidence)
                               for n, t in enumerate(data.notes, start=1) if t.text.strip()])
        for n, fig in enumerate(data.figures, start=1):
            values = {v.period.strip(): v.value.strip() for v in fig.values if v.value.strip()}
            # periods are keys, not claims ("2023" would read as a number): values are checked
            row = line("figure", n, f"{fig.label}: " + "; ".join(values.values()), fig.evidence)
            row.label = fig.label
            slide.values[id(row)] = values
            slide.figures.append(row)
        return slide

    def lines(self) -> list[Line]:
        return [*([self.title] if self.title else []), *self.bullets, *self.figures, *self.notes]


def _send_back(turn: ModelTurn, problems: list[str]) -> ChatMessage:
    """The reply to a turn whose slide failed: each of its tool calls gets an error result
    (https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use)."""
    if not turn.tool_calls:
        return ChatMessage(role="user", text=send_back_message(problems))
    return ChatMessage(role="user", tool_results=[
        ToolResult(call.id, send_back_message(problems), is_error=True)
        for call in turn.tool_calls])
