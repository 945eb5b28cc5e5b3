"""What the tool loop does with a model turn that did not end normally, by its `stop_reason`.

Anthropic documents each reason and what to do with it
(https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons):
- `max_tokens`: the turn is unfinished. Its tool calls may be cut mid-argument, so none is run.
  A turn that had begun its reply is continued: the reply so far goes back as the assistant's
  turn, a user turn asks to go on from where it stopped, and the continuation is joined to it —
  nothing written (and streamed into Slack) is written twice. A turn cut before it wrote a word
  (it spent the cap thinking) is asked again with twice the output cap, up to
  `Limits.max_answer_tokens`; past that, or past `Limits.max_continuations`, the findings answer
  and say why.
- `refusal`: the model declined; the findings answer, with a plain note.
- `model_context_window_exceeded`: the retrieval is cut to half and earlier turns of the thread
  are left out, once; then the findings answer.
Every other reason (`end_turn`, `tool_use`, `stop_sequence`, `pause_turn`) is a usable turn.
"""

from __future__ import annotations

from typing import Any

from manda.agent.context import Limits
from manda.agent.prompts import CONTINUE_MESSAGE, question_message
from manda.agent.state import AnswerState
from manda.llm.port import CONTEXT_WINDOW_EXCEEDED, MAX_TOKENS, REFUSAL, ChatMessage, ModelTurn

REFUSAL_NOTICE = "The model declined to answer this question; answered from the extracted findings."
TRUNCATED_NOTICE = ("The model's answer did not fit its length limit; answered from the extracted "
                    "findings.")
CONTEXT_NOTICE = ("The question and its documents did not fit the model's context window; "
                  "answered from the extracted findings.")


def answer_tokens(state: AnswerState, limits: Limits) -> int:
    """The output cap of the next turn: the intent's, or the raised one after a cut-off turn."""
    return state.get("answer_tokens") or limits.tokens_for(state["ask"].intent.value)


def after_stop(turn: ModelTurn, state: AnswerState, limits: Limits, cap: int,
               messages: list[ChatMessage]) -> dict[str, Any] | None:
    """The state update for a turn that cannot be used as it is; None for a usable turn.
    `messages` is the conversation the turn answered."""
    iterations = state.get("iterations", 0) + 1
    if turn.stop_reason == REFUSAL:
        return _offline(state, REFUSAL_NOTICE, iterations)
    if turn.stop_reason == CONTEXT_WINDOW_EXCEEDED:
        if state.get("context_trimmed"):
            return _offline(state, CONTEXT_NOTICE, iterations)
        return {"messages": [_trimmed_question(state)], "context_trimmed": True,
                "iterations": iterations, "loop_done": False}
    if turn.stop_reason == MAX_TOKENS:
        if turn.written.strip():
            return _continued(turn, state, limits, iterations, messages)
        raised = min(cap * 2, limits.max_answer_tokens)
        if raised <= cap:
            return _offline(state, TRUNCATED_NOTICE, iterations)
        # the cut-off turn is dropped, never answered: the same request goes again, larger
        return {"answer_tokens": raised, "iterations": iterations, "loop_done": False}
    return None


def _continued(turn: ModelTurn, state: AnswerState, limits: Limits, iterations: int,
               messages: list[ChatMessage]) -> dict[str, Any]:
    """Go on from where the cut reply stopped (its text is kept and joined to what follows)."""
    done = state.get("continuations", 0)
    if done >= limits.max_continuations:
        return _offline(state, TRUNCATED_NOTICE, iterations)
    return {"messages": [*messages, turn.as_cut_message(),
                         ChatMessage(role="user", text=CONTINUE_MESSAGE)],
            "partial_text": (state.get("partial_text") or "") + turn.written,
            "continuations": done + 1, "iterations": iterations, "loop_done": False}


def _offline(state: AnswerState, notice: str, iterations: int) -> dict[str, Any]:
    return {"loop_done": True, "use_offline": True, "iterations": iterations,
            "notices": [*state["notices"], notice]}


def _trimmed_question(state: AnswerState) -> ChatMessage:
    context = state["context_text"]
    cut = context[: len(context) // 2]
    cut = cut[: cut.rfind("\n")] if "\n" in cut else cut  # end on a whole passage line
    note = "\n[The retrieval was shortened to fit the model's context window.]"
    return ChatMessage(role="user", text=question_message(state["ask"], cut + note))
