"""How hard Claude thinks for each kind of call, and how many tokens that takes, set explicitly.

Claude's current models think adaptively by default at `high` effort, and thinking tokens count
toward `max_tokens` (https://platform.claude.com/docs/en/build-with-claude/effort,
https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking). Left to the defaults, a
2,048-token cap for a one-sentence answer is often spent before the answer begins. So every kind
of call says what it sends:

- **answer** (the tool loop): adaptive thinking at `medium` effort — the effort page's level for
  "agentic tasks that require a balance of speed, cost, and performance" — and a cap of the
  answer shape's output plus room to think.
- **slide** (the CIM's `write_slide` call): the same; a slide is structured output that has to
  be worked out from numbered evidence.
- **extraction** (one `record_findings` call a batch): no up-front thinking (`between_tools`
  on Claude Sonnet 5.5, which refuses `disabled`:
  https://platform.claude.com/docs/en/models/sonnet-5-5/whats-new-sonnet-5-5) at `high` effort,
  so the whole cap goes to the findings and they stay thorough.

Which `thinking` types and effort levels a model accepts depends on the model; `MODEL_TRAITS`
records the documented families, and a model it does not know is sent what the current Sonnet
takes (`manda doctor` reads the configured model's own capabilities).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Effort = Literal["low", "medium", "high"]
ThinkingType = Literal["adaptive", "between_tools", "disabled", "enabled"]


@dataclass(frozen=True)
class ModelTraits:
    """What a model family accepts: its `thinking` types; whether it takes an effort level."""

    thinking: frozenset[str]
    effort: bool = True

    @property
    def no_upfront_thinking(self) -> dict[str, Any] | None:
        """The request's way to turn up-front thinking off, if the model has one."""
        for kind in ("between_tools", "disabled"):
            if kind in self.thinking:
                return {"type": kind}
        return None


CURRENT = ModelTraits(frozenset({"adaptive", "between_tools"}))
# Longest prefix wins. From each model's "what's new" and the thinking page
# (https://platform.claude.com/docs/en/build-with-claude/thinking#configuring-thinking).
MODEL_TRAITS: dict[str, ModelTraits] = {
    "claude-sonnet-5-5": CURRENT,
    "claude-haiku-5-5": CURRENT,
    "claude-opus-5-5": ModelTraits(frozenset({"adaptive"})),  # thinking always on
    "claude-fable": ModelTraits(frozenset({"adaptive"})),
    "claude-mythos": ModelTraits(frozenset({"adaptive"})),
    "claude-sonnet-5": ModelTraits(frozenset({"adaptive", "disabled"})),
    "claude-opus-5": ModelTraits(frozenset({"adaptive", "disabled"})),
    "claude-opus-4-8": ModelTraits(frozenset({"adaptive"})),
    "claude-opus-4-7": ModelTraits(frozenset({"adaptive"})),
    "claude-opus-4-6": ModelTraits(frozenset({"adaptive", "enabled", "disabled"})),
    "claude-sonnet-4-6": ModelTraits(frozenset({"adaptive", "enabled", "disabled"})),
    "claude-opus-4-5": ModelTraits(frozenset({"enabled", "disabled"})),
    "claude-sonnet-4-5": ModelTraits(frozenset({"enabled", "disabled"}), effort=False),
    "claude-haiku-4-5": ModelTraits(frozenset({"enabled", "disabled"}), effort=False),
}


def traits_of(model: str) -> ModelTraits:
    """The documented traits of `model` (by its longest known prefix); the current ones else."""
    known = [prefix for prefix in MODEL_TRAITS if model.startswith(prefix)]
    return MODEL_TRAITS[max(known, key=len)] if known else CURRENT


@dataclass(frozen=True)
class CallKind:
    """One kind of model call: whether it thinks first, at what effort, and the room thinking
    needs on top of the reply's own tokens."""

    name: str
    thinks: bool
    effort: Effort
    thinking_tokens: int

    def max_tokens(self, output_tokens: int) -> int:
        """The request's cap: the reply's tokens, plus the thinking that comes before them."""
        return output_tokens + (self.thinking_tokens if self.thinks else 0)

    def request_fields(self, model: str) -> dict[str, Any]:
        """`thinking` and `output_config` for `model`, as far as it accepts them."""
        traits = traits_of(model)
        fields: dict[str, Any] = {}
        if self.thinks and "adaptive" in traits.thinking:
            fields["thinking"] = {"type": "adaptive"}
        elif not self.thinks and (off := traits.no_upfront_thinking) is not None:
            fields["thinking"] = off
        if traits.effort:
            fields["output_config"] = {"effort": self.effort}
        return fields


ANSWER = CallKind("answer", thinks=True, effort="medium", thinking_tokens=8192)
SLIDE = CallKind("slide", thinks=True, effort="medium", thinking_tokens=8192)
EXTRACTION = CallKind("extraction", thinks=False, effort="high", thinking_tokens=0)
