"""How close in meaning the leading spans are to the question, by the deal's own embedder.

The spans that lead by their words (`manda.agent.spans`) are embedded with the question, and
each one's cosine is kept on the evidence (`Evidence.meaning`), so "How much did Tesla make from
regulatory credits?" finds "Automotive regulatory credits revenue" although few words are shared.
Only the first `WEIGHED` spans are embedded: a question costs one small batch.
"""

from __future__ import annotations

import logging

import numpy as np

from manda.agent.evidence import Evidence
from manda.agent.intents import QuestionFrame
from manda.agent.spans import rank_spans
from manda.embed.port import Embedder

log = logging.getLogger(__name__)

WEIGHED = 24  # spans embedded per question
FLOOR = 0.2  # a cosine below this says nothing of meaning (unrelated texts score about this)


async def weigh(frame: QuestionFrame, evidence: Evidence, embedder: Embedder,
                question: str | None = None) -> None:
    """Fill `evidence.meaning` for the leading spans; a failing embedder leaves it empty."""
    ranked = rank_spans(frame, evidence, question=question)
    texts = list(dict.fromkeys(s.text for s in ranked))[:WEIGHED]
    if not texts:
        return
    try:
        query = await embedder.embed([question or frame.text], "query")
        vectors = await embedder.embed(texts, "document")
    except Exception as exc:  # answered by words alone, as without an embedder
        log.warning("embedder %s unavailable for weighing spans: %s",
                    getattr(embedder, "id", "?"), exc)
        return
    q = np.asarray(query[0], dtype=np.float32)
    m = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(m, axis=1) * (np.linalg.norm(q) or 1.0)
    cosines = (m @ q) / np.where(norms == 0, 1.0, norms)
    evidence.meaning = {t: round(max(0.0, float(c) - FLOOR), 4)
                        for t, c in zip(texts, cosines, strict=True)}
