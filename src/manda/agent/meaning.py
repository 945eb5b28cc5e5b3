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
from manda.agent.frame import QuestionFrame
from manda.agent.spans import rank_spans
from manda.embed.port import Embedder
from manda.embed.prototypes import TextVectors
from manda.kg.port import Corpus
from manda.vocabulary import Topic, topics

log = logging.getLogger(__name__)

WEIGHED = 40  # spans embedded per question
FLOOR = 0.2  # a cosine below this says nothing of meaning (unrelated texts score about this)


async def weigh(frame: QuestionFrame, evidence: Evidence, embedder: Embedder) -> None:
    """Fill `evidence.meaning` for the leading spans; a failing embedder leaves it empty."""
    ranked = rank_spans(frame, evidence)
    texts = list(dict.fromkeys(s.text for s in ranked))[:WEIGHED]
    if not texts:
        return
    try:
        query = await embedder.embed([frame.text], "query")
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


# ---------------------------------------------------------------- topics by meaning

# A passage is about a topic by its meaning when its stored vector stands out for that topic's
# prototype: at least MARGIN above the median of all topics and within TIED of the best one.
# Cosines of one embedder are compressed (E5: about 0.75-0.87 for any passage), so the margin
# over the passage's own median is what says it, not the cosine. Measured on the sample rooms
# with multilingual-e5-small: a section headed "Litigation" stands 0.05 above its median, a
# cap table 0.08 above for ownership; generic passages (a quarterly report's page) 0.02-0.03.
MARGIN = 0.04
TIED = 0.015
_PROTOTYPES = TextVectors()  # one per process: a topic's prototype never changes per embedder


def prototype(topic: Topic) -> str:
    """What a topic is, in words an embedder reads: its label and its search."""
    return f"{topic.label}: {topic.query}"


async def weigh_topics(deal_id: str, evidence: Evidence, graph: Corpus,
                       embedder: Embedder) -> None:
    """Fill `evidence.topics_by_meaning` for the passages not weighed yet, from the vectors the
    store already holds (nothing is embedded again but the topics' prototypes, once)."""
    chunk_ids = [h.chunk_id for h in evidence.hits if h.chunk_id not in evidence.topics_by_meaning]
    if not chunk_ids:
        return
    every = topics()
    try:
        stored = await graph.chunk_vectors(deal_id, embedder.id, chunk_ids)
        protos = await _PROTOTYPES.vectors(embedder, [prototype(t) for t in every], "query")
    except Exception as exc:  # topics are then recognised by their words and headings alone
        log.warning("topics by meaning unavailable (%s): %s", getattr(embedder, "id", "?"), exc)
        return
    for chunk_id in chunk_ids:
        vector = stored.get(chunk_id)
        if vector is None or not np.any(vector):
            evidence.topics_by_meaning[chunk_id] = ()
            continue
        cosines = protos @ (vector / np.linalg.norm(vector))
        best, median = float(cosines.max()), float(np.median(cosines))
        evidence.topics_by_meaning[chunk_id] = tuple(
            t.key for t, c in zip(every, cosines, strict=True)
            if c - median >= MARGIN and c >= best - TIED)
