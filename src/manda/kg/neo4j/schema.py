"""Neo4j constraints and indexes, created idempotently (`IF NOT EXISTS`) each time a store starts.

Quirks worked around here:
- every node of a deal is keyed by `(deal_id, id)` with a composite uniqueness constraint (Neo4j 5
  Community supports them), so two deals may reuse an id and MERGE on the key is race-free;
- a composite index is only used when a query constrains all of its properties, so the deal-wide
  reads (`list_documents`, `list_findings`...) get single-property `deal_id` indexes of their own;
- a decision is unique per `(deal_id, finding_id)`: that constraint is what makes
  `record_decision` atomic across processes;
- the full-text index uses Lucene's `english` analyzer (lower-casing, stemming, stop words), the
  closest match to the embedded store's tantivy English stemmer; queries go through `fulltext.py`;
- vector indexes are NOT created here: their dimensions are known only when an embedder first
  writes vectors, so `cypher.vector_index_statement` creates one per embedder on demand;
- a new index is populated in the background: `start()` waits for all of them (`db.awaitIndexes`)
  so the first search does not hit a POPULATING index.
"""

from __future__ import annotations

from manda.kg.neo4j import cypher
from manda.kg.neo4j.executor import QueryExecutor

FULLTEXT_INDEX = "chunk_text"  # the name in the FULLTEXT statement below
INDEX_WAIT_SECONDS = 60  # below the store's default transaction timeout (120 s)

CONSTRAINTS: tuple[str, ...] = (
    "CREATE CONSTRAINT deal_key IF NOT EXISTS FOR (n:Deal) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT document_key IF NOT EXISTS "
    "FOR (n:Document) REQUIRE (n.deal_id, n.id) IS UNIQUE",
    "CREATE CONSTRAINT chunk_key IF NOT EXISTS FOR (n:Chunk) REQUIRE (n.deal_id, n.id) IS UNIQUE",
    "CREATE CONSTRAINT chunk_vector_key IF NOT EXISTS "
    "FOR (n:ChunkVector) REQUIRE (n.deal_id, n.embedder_id, n.chunk_id) IS UNIQUE",
    "CREATE CONSTRAINT finding_key IF NOT EXISTS "
    "FOR (n:Finding) REQUIRE (n.deal_id, n.id) IS UNIQUE",
    "CREATE CONSTRAINT decision_key IF NOT EXISTS "
    "FOR (n:Decision) REQUIRE (n.deal_id, n.finding_id) IS UNIQUE",
    "CREATE CONSTRAINT audit_entry_key IF NOT EXISTS "
    "FOR (n:AuditEntry) REQUIRE (n.deal_id, n.id) IS UNIQUE",
    "CREATE CONSTRAINT qa_item_key IF NOT EXISTS "
    "FOR (n:QAItem) REQUIRE (n.deal_id, n.id) IS UNIQUE",
    "CREATE CONSTRAINT grid_cell_key IF NOT EXISTS "
    "FOR (n:GridCell) REQUIRE (n.deal_id, n.document_id, n.wording, n.reader) IS UNIQUE",
    "CREATE CONSTRAINT grid_run_key IF NOT EXISTS "
    "FOR (n:GridRun) REQUIRE (n.deal_id, n.id) IS UNIQUE",
    "CREATE CONSTRAINT channel_binding_key IF NOT EXISTS "
    "FOR (n:ChannelBinding) REQUIRE n.channel_key IS UNIQUE",
)

INDEXES: tuple[str, ...] = (
    "CREATE INDEX document_deal IF NOT EXISTS FOR (n:Document) ON (n.deal_id)",
    "CREATE INDEX document_hash IF NOT EXISTS FOR (n:Document) ON (n.content_hash)",
    "CREATE INDEX chunk_deal IF NOT EXISTS FOR (n:Chunk) ON (n.deal_id)",
    "CREATE INDEX chunk_document IF NOT EXISTS FOR (n:Chunk) ON (n.document_id)",
    "CREATE INDEX chunk_vector_deal IF NOT EXISTS FOR (n:ChunkVector) ON (n.deal_id)",
    "CREATE INDEX finding_deal IF NOT EXISTS FOR (n:Finding) ON (n.deal_id)",
    "CREATE INDEX finding_chunk IF NOT EXISTS FOR (n:Finding) ON (n.chunk_id)",
    "CREATE INDEX audit_entry_deal IF NOT EXISTS FOR (n:AuditEntry) ON (n.deal_id)",
    "CREATE INDEX qa_item_deal IF NOT EXISTS FOR (n:QAItem) ON (n.deal_id)",
    "CREATE FULLTEXT INDEX chunk_text IF NOT EXISTS FOR (n:Chunk) ON EACH [n.text] "
    "OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}",
)

SCHEMA_STATEMENTS: tuple[str, ...] = CONSTRAINTS + INDEXES


async def apply_schema(executor: QueryExecutor, *, wait_seconds: int = INDEX_WAIT_SECONDS) -> None:
    """Create every missing constraint and index, then wait until all indexes are online.

    Each statement runs in its own transaction: Neo4j does not mix schema and data changes in one.
    """
    for statement in SCHEMA_STATEMENTS:
        await executor.run(statement, {}, write=True)
    await executor.run(cypher.AWAIT_INDEXES, {"timeout_seconds": wait_seconds}, write=True)
