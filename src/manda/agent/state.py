"""The answering graph's state: one question's journey from reading to a grounded answer."""

from __future__ import annotations

from typing import Literal, TypedDict

from manda.agent.actions import KnowledgeActions
from manda.agent.compose import Ask, Draft
from manda.agent.constraints import Constraint, ConstraintCheck, Constraints
from manda.agent.evidence import Evidence
from manda.agent.followups import Resolution
from manda.agent.intents import QuestionFrame
from manda.agent.trace import TraceRecorder
from manda.agent.validate import GateResult
from manda.answers import Caution, Citation, SuggestedAction
from manda.llm.port import ChatMessage, TextSink, TokenUsage
from manda.memory.port import Conversation

TextOrigin = Literal["model", "offline", "clarification"]


class AnswerState(TypedDict, total=False):
    # input
    deal_id: str
    question: str
    conversation_id: str
    sink: TextSink | None
    trace: TraceRecorder  # what the answer's trace needs from the run (`manda.agent.trace`)
    # the asking person's deal operations (Claude's tools that change what the deal knows)
    knowledge_actions: KnowledgeActions | None
    # read and resolved
    conversation: Conversation
    question_read: str  # the question without its instructions: what is read and searched
    constraints: Constraints  # in force for this answer: the question's and the thread's
    constraints_carried: list[Constraint]  # of those, the ones an earlier question stated
    memory_down: bool  # the conversation memory could not be read: answered without it
    frame: QuestionFrame
    resolution: Resolution
    ask: Ask
    # retrieved
    evidence: Evidence
    context_text: str  # the retrieval, rendered as quoted data for the model
    # tool loop (model path)
    messages: list[ChatMessage]
    tool_calls_used: int
    iterations: int
    loop_done: bool
    limit_hit: str | None
    use_offline: bool
    answer_tokens: int  # the output cap of the next model turn (raised after a cut-off turn)
    answer_turn: ChatMessage | None  # the model's last answer, verbatim, for a re-prompt
    partial_text: str  # a reply cut off by the output limit, as written: its continuation follows
    continuations: int  # cut-off replies continued so far
    model_deadline: float  # the event loop's time past which no model turn is awaited
    context_trimmed: bool  # the retrieval was cut once after the context window was exceeded
    # composing and checking
    draft: Draft
    origin: TextOrigin
    text: str
    gate: GateResult
    reprompts: int
    streamed: bool
    constraint_checks: list[ConstraintCheck]  # each constraint on the final answer: met or why not
    cautions: list[Caution]  # what the answer says of those constraints, apart from its text
    constraints_sent_back: bool  # the model was already asked once to meet them
    # output
    citations: list[Citation]
    actions: list[SuggestedAction]
    notices: list[str]
    usage: TokenUsage
    model_name: str
