"""The embedded (default) knowledge graph adapter: SQLite + FTS5 + numpy, no server needed."""

from manda.kg.embedded.store import EmbeddedKnowledgeGraph

__all__ = ["EmbeddedKnowledgeGraph"]
