"""The embedded (default) knowledge graph adapter: SQLite + tantivy + numpy, no server needed."""

from manda.kg.embedded.store import EmbeddedKnowledgeGraph

__all__ = ["EmbeddedKnowledgeGraph"]
