"""The Neo4j 5 adapter of the knowledge graph port (production; chosen when NEO4J_URI is set)."""

from manda.kg.neo4j.store import Neo4jKnowledgeGraph

__all__ = ["Neo4jKnowledgeGraph"]
