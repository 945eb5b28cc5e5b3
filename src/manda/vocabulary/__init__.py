"""The deal team's vocabulary, as data: topics, line items, roles, cues and one file a language.

`topics.yaml` names each deal topic (litigation, covenants, data protection …) with the roles
where it lives, its Q&A category, red-flag severity, timeline categories and composer;
`line_items.yaml` names each metric; `roles.yaml` is the one classification of documents (what
each role is worth, how its signals are weighed); `events.yaml` the kinds of dated event the
timeline reads; `languages/<code>.yaml` holds every word of one language. Red flags, the
timeline, topic answers, gaps, retrieval, ingestion's readers and Claude's tools read them here.
"""

from manda.vocabulary.cues import Cues, cues
from manda.vocabulary.load import Vocabulary, VocabularyError, load
from manda.vocabulary.model import LineItem, Topic

__all__ = ["Cues", "LineItem", "Topic", "Vocabulary", "VocabularyError", "cues", "topic",
           "topics", "vocabulary"]


def vocabulary() -> Vocabulary:
    """The vocabulary, read once a process."""
    return load()


def topics() -> tuple[Topic, ...]:
    return load().topics


def topic(key: str) -> Topic:
    return load().topic(key)
