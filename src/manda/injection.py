"""Documents are data: recognise text that tries to instruct an assistant, so it is never obeyed.

Claude receives every passage as quoted data under an explicit instruction; the offline composer
only uses extracted values, and skips any finding whose excerpt is such an instruction. Both
paths can still *mention* the paragraph as something unusual in the data room.
"""

from __future__ import annotations

import re
from functools import lru_cache

_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|"
    r"above|earlier|other|your)\s+(?:instructions?|prompts?|rules?|guidance)\b"
    r"|\bnote\s+to\s+(?:ai|llm|language\s+model|chat\s*bots?|assistants?|ai\s+assistants?)\b"
    r"|\b(?:ai|llm)\s+assistants?\s*:"
    r"|\byou\s+are\s+now\b|\bsystem\s+prompt\b|\bnew\s+instructions?\s*:"
    r"|\b(?:always|must)\s+(?:answer|respond|report|reply|say)\s+(?:that|with|as)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


@lru_cache(maxsize=8192)
def looks_like_instruction(text: str) -> bool:
    """True when `text` addresses an assistant with an instruction."""
    return bool(_INSTRUCTION.search(text))


def instruction_sentences(text: str) -> list[str]:
    """The sentences of `text` that are instructions to an assistant."""
    return [s.strip() for s in _SENTENCE.split(text) if s.strip() and looks_like_instruction(s)]
