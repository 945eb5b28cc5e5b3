"""Every Cypher statement the Neo4j adapter sends, in one place, so each can be linted and reviewed.

Rules of this module:
- every upper-case `str` constant is one complete statement, valid as Cypher 5 and Cypher 25;
  `tests/kg/test_neo4j_cypher_lint.py` collects them all and checks them with Neo4j's own parser;
- values always travel as `$parameters`, never inside the text;
- the only text composed at run time is a vector index definition, because Neo4j cannot take a
  property key as a parameter: `vector_index_statement` is the ONE helper that composes Cypher,
  from names checked against `IDENTIFIER` and an int checked for range.

Graph model: `(:Document)-[:IN_DEAL]->(:Deal)`, `(:Chunk)-[:PART_OF]->(:Document)`,
`(:Finding)-[:EXTRACTED_FROM]->(:Chunk)`,
`(:Finding)-[:SUPERSEDES|CONTRADICTS|SUPPORTS]->(:Finding)`,
`(:Document)-[:SUPERSEDES|ATTACHED_TO]->(:Document)`, `(:ChunkVector)-[:EMBEDS]->(:Chunk)`;
decisions, audit entries, Q&A items and channel bindings are nodes of their own. Every node of a
deal carries `deal_id`, and each is keyed by `(deal_id, id)`, so two deals may reuse an id without
colliding.

A relation may name a finding or document that is not stored (yet): its endpoint is then MERGEd as
a bare key node with the extra label `:Placeholder`, which every read of findings and documents
skips and which the real upsert removes when it fills the node in.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from manda.models import RelationType

LABELS: tuple[str, ...] = (
    "Placeholder",
    "Deal",
    "Document",
    "Chunk",
    "ChunkVector",
    "Finding",
    "Decision",
    "AuditEntry",
    "QAItem",
    "GridCell",
    "GridRun",
    "ChannelBinding",
)
RELATIONSHIP_TYPES: tuple[str, ...] = (
    "IN_DEAL",
    "PART_OF",
    "EXTRACTED_FROM",
    "EMBEDS",
    "SUPERSEDES",
    "CONTRADICTS",
    "SUPPORTS",
    "ATTACHED_TO",
)
# (from label, relationship type, to label): the only paths the model allows.
GRAPH_SCHEMA: tuple[tuple[str, str, str], ...] = (
    ("Document", "IN_DEAL", "Deal"),
    ("Chunk", "PART_OF", "Document"),
    ("Finding", "EXTRACTED_FROM", "Chunk"),
    ("ChunkVector", "EMBEDS", "Chunk"),
    ("Finding", "SUPERSEDES", "Finding"),
    ("Finding", "CONTRADICTS", "Finding"),
    ("Finding", "SUPPORTS", "Finding"),
    ("Document", "SUPERSEDES", "Document"),
    ("Document", "ATTACHED_TO", "Document"),
)

# ---------------------------------------------------------------- connectivity

PING = "RETURN 1 AS ok"

# ---------------------------------------------------------------- deals

UPSERT_DEAL = """
MERGE (deal:Deal {id: $deal_id})
SET deal += $props
WITH deal
MATCH (doc:Document {deal_id: $deal_id})
WHERE NOT doc:Placeholder
MERGE (doc)-[:IN_DEAL]->(deal)
"""

GET_DEAL = """
MATCH (deal:Deal {id: $deal_id})
RETURN properties(deal) AS props
"""

LIST_DEALS = """
MATCH (deal:Deal)
RETURN properties(deal) AS props
ORDER BY deal.id
"""

# ---------------------------------------------------------------- documents

# The deal node may not exist yet (upsert_deal links documents when it arrives): the document is
# written first, then linked only if its deal matches.
UPSERT_DOCUMENT = """
MERGE (doc:Document {deal_id: $deal_id, id: $document_id})
SET doc += $props
REMOVE doc:Placeholder
WITH doc
MATCH (deal:Deal {id: $deal_id})
MERGE (doc)-[:IN_DEAL]->(deal)
"""

GET_DOCUMENT = """
MATCH (doc:Document {deal_id: $deal_id, id: $document_id})
WHERE NOT doc:Placeholder
RETURN properties(doc) AS props
"""

FIND_DOCUMENT_BY_HASH = """
MATCH (doc:Document {deal_id: $deal_id, content_hash: $content_hash})
WHERE NOT doc:Placeholder
RETURN properties(doc) AS props
ORDER BY doc.ingested_at DESC, doc.id
LIMIT 1
"""

LIST_DOCUMENTS = """
MATCH (doc:Document {deal_id: $deal_id})
WHERE NOT doc:Placeholder
RETURN properties(doc) AS props
ORDER BY doc.filename, doc.id
"""

DOCUMENT_NAMES = """
MATCH (doc:Document {deal_id: $deal_id})
WHERE NOT doc:Placeholder AND doc.status = 'completed'
RETURN doc.id AS id, doc.filename AS filename
"""

SET_DOCUMENT_STATUS = """
MATCH (doc:Document {deal_id: $deal_id, id: $document_id})
WHERE NOT doc:Placeholder
SET doc.status = $status, doc.error = $error
RETURN doc.id AS id
"""

# ---------------------------------------------------------------- chunks

ADD_CHUNKS = """
UNWIND $rows AS row
MERGE (chunk:Chunk {deal_id: $deal_id, id: row.id})
SET chunk += row.props
WITH chunk, row
MATCH (doc:Document {deal_id: $deal_id, id: row.document_id})
MERGE (chunk)-[:PART_OF]->(doc)
"""

# A chunk's heading path (a list of strings, outermost first) and the same on its findings.
SET_HEADING_PATHS = """
UNWIND $rows AS row
MATCH (chunk:Chunk {deal_id: $deal_id, id: row.chunk_id})
SET chunk.heading_path = row.heading_path
WITH row
MATCH (finding:Finding {deal_id: $deal_id, chunk_id: row.chunk_id})
WHERE NOT finding:Placeholder
SET finding.heading_path = row.heading_path
"""

# UNWIND keeps the caller's order and lets each lookup use the (deal_id, id) key.
GET_CHUNKS = """
UNWIND $chunk_ids AS chunk_id
MATCH (chunk:Chunk {deal_id: $deal_id, id: chunk_id})
RETURN properties(chunk) AS props
"""

LIST_CHUNKS = """
MATCH (chunk:Chunk {deal_id: $deal_id, document_id: $document_id})
RETURN properties(chunk) AS props
ORDER BY chunk.ordinal, chunk.id
"""

# ---------------------------------------------------------------- vectors

# One (:ChunkVector) per (deal, embedder, chunk). The vector lives in the embedder's own property
# (`$property`, see `vector_space`), which only that embedder's index covers: two embedders never
# share an index. `db.create.setNodeVectorProperty` stores it as a compact float array and takes the
# property key as a parameter, so no statement is composed for writes.
ADD_VECTORS = """
UNWIND $rows AS row
MATCH (chunk:Chunk {deal_id: $deal_id, id: row.chunk_id})
MERGE (vec:ChunkVector {deal_id: $deal_id, embedder_id: $embedder_id, chunk_id: row.chunk_id})
MERGE (vec)-[:EMBEDS]->(chunk)
WITH vec, row
CALL db.create.setNodeVectorProperty(vec, $property, row.vector)
RETURN row.chunk_id AS chunk_id
"""

EMBEDDED_CHUNK_IDS = """
MATCH (vec:ChunkVector {deal_id: $deal_id, embedder_id: $embedder_id})
RETURN vec.chunk_id AS chunk_id
"""

# The stored vectors of some chunks, read from the embedder's own property (a key as a parameter).
CHUNK_VECTORS = """
MATCH (vec:ChunkVector {deal_id: $deal_id, embedder_id: $embedder_id})
WHERE vec.chunk_id IN $chunk_ids
RETURN vec.chunk_id AS chunk_id, vec[$property] AS vector
"""

# A vector index spans every deal and cannot filter while it searches (Neo4j 5), so the caller asks
# for `$candidates` > k neighbours, keeps those of the deal, and asks again with more candidates
# while fewer than k survived, the index still had more to give (`returned = $candidates`) and the
# deal has more vectors than were found (COUNT_VECTORS).
# Only chunks of a document whose ingestion completed are searched: a half-ingested document
# (a crash between its chunks and its findings) is never an answer's source.
VECTOR_SEARCH = """
CALL db.index.vector.queryNodes($index, $candidates, $vector) YIELD node, score
WITH collect({node: node, score: score}) AS hits
RETURN size(hits) AS returned,
       [hit IN hits
        WHERE hit.node.deal_id = $deal_id AND hit.node.embedder_id = $embedder_id
          AND NOT EXISTS {
            MATCH (:Chunk {deal_id: $deal_id, id: hit.node.chunk_id})-[:PART_OF]->(doc:Document)
            WHERE doc.status <> 'completed'
          }
        | {id: hit.node.chunk_id, score: hit.score}][0..$k] AS matches
"""

COUNT_VECTORS = """
MATCH (vec:ChunkVector {deal_id: $deal_id, embedder_id: $embedder_id})
RETURN count(vec) AS available
"""

# Which index exists under a name, and with which configuration (its vector dimensions).
SHOW_INDEX = """
SHOW INDEXES YIELD name, type, state, options
WHERE name = $name
RETURN name, type, state, options
"""

AWAIT_INDEX = "CALL db.awaitIndex($name, $timeout_seconds)"

AWAIT_INDEXES = "CALL db.awaitIndexes($timeout_seconds)"

# ---------------------------------------------------------------- full text

# The full-text index spans every deal. No `limit` option is passed to the procedure: it would cut
# the list before the deal filter. Matches stream in Lucene (BM25) score order.
FULLTEXT_SEARCH = """
CALL db.index.fulltext.queryNodes($index, $query) YIELD node, score
WHERE node.deal_id = $deal_id
  AND NOT EXISTS { MATCH (node)-[:PART_OF]->(doc:Document) WHERE doc.status <> 'completed' }
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT $k
"""

# ---------------------------------------------------------------- findings

ADD_FINDINGS = """
UNWIND $rows AS row
MERGE (finding:Finding {deal_id: row.deal_id, id: row.id})
SET finding += row.props
REMOVE finding:Placeholder
WITH finding, row
MATCH (chunk:Chunk {deal_id: row.deal_id, id: row.chunk_id})
MERGE (finding)-[:EXTRACTED_FROM]->(chunk)
"""

# Reads of findings leave out those of a document whose ingestion has not completed (a crash
# after its findings were stored): they are never evidence nor queued for review.
GET_FINDING = """
MATCH (finding:Finding {deal_id: $deal_id, id: $finding_id})
WHERE NOT finding:Placeholder
  AND NOT EXISTS {
    MATCH (doc:Document {deal_id: $deal_id, id: finding.document_id})
    WHERE doc.status <> 'completed'
  }
RETURN properties(finding) AS props
"""

LIST_FINDINGS = """
MATCH (finding:Finding {deal_id: $deal_id})
WHERE NOT finding:Placeholder
  AND ($status IS NULL OR finding.status = $status)
  AND ($subject IS NULL OR finding.subject = $subject)
  AND ($document_id IS NULL OR finding.document_id = $document_id)
  AND ($unfinished OR NOT EXISTS {
    MATCH (doc:Document {deal_id: $deal_id, id: finding.document_id})
    WHERE doc.status <> 'completed'
  })
RETURN properties(finding) AS props
ORDER BY finding.created_at, finding.id
"""

FINDING_SUBJECTS = """
MATCH (finding:Finding {deal_id: $deal_id})
WHERE NOT finding:Placeholder
  AND NOT EXISTS {
    MATCH (doc:Document {deal_id: $deal_id, id: finding.document_id})
    WHERE doc.status <> 'completed'
  }
RETURN DISTINCT finding.subject AS subject
ORDER BY subject
"""

FINDINGS_FOR_CHUNKS = """
MATCH (finding:Finding {deal_id: $deal_id})
WHERE finding.chunk_id IN $chunk_ids AND NOT finding:Placeholder
  AND NOT EXISTS {
    MATCH (doc:Document {deal_id: $deal_id, id: finding.document_id})
    WHERE doc.status <> 'completed'
  }
RETURN properties(finding) AS props
ORDER BY finding.chunk_id, finding.created_at, finding.id
"""

# Retrieval's findings channel (`Findings.fact_chunks`): a passage scored by its best finding on
# the subjects (and periods) asked, a superseded one at half its confidence, a rejected one never.
# Read twice: for the passages the other channels found, and the strongest of the rest.
FACT_CHUNKS = """
MATCH (finding:Finding {deal_id: $deal_id})
WHERE NOT finding:Placeholder
  AND finding.subject IN $subjects
  AND finding.chunk_id IS NOT NULL
  AND finding.status <> 'rejected'
  AND (size($periods) = 0 OR finding.period IN $periods)
  AND ($among IS NULL OR finding.chunk_id IN $among)
WITH finding.chunk_id AS chunk_id,
     CASE WHEN finding.status = 'superseded' THEN 0.5 * finding.confidence
          ELSE finding.confidence END AS score
ORDER BY score DESC
WITH chunk_id, collect(score)[0] AS score
RETURN chunk_id, score
ORDER BY score DESC, chunk_id
LIMIT $limit
"""

SET_FINDING_STATUS = """
MATCH (finding:Finding {deal_id: $deal_id, id: $finding_id})
WHERE NOT finding:Placeholder
SET finding.status = $status
RETURN finding.id AS id
"""

# Findings a document read again no longer states, with every relation that names them.
REMOVE_FINDINGS = """
MATCH (finding:Finding {deal_id: $deal_id})
WHERE finding.id IN $ids
DETACH DELETE finding
"""

# ---------------------------------------------------------------- relations
# Neo4j takes no relationship type as a parameter: one statement per (endpoint, type).
# A missing endpoint is created as a `:Placeholder` (see the module docstring).

ADD_FINDING_SUPERSEDES = """
UNWIND $rows AS row
MERGE (source:Finding {deal_id: $deal_id, id: row.source_id})
  ON CREATE SET source:Placeholder
MERGE (target:Finding {deal_id: $deal_id, id: row.target_id})
  ON CREATE SET target:Placeholder
MERGE (source)-[rel:SUPERSEDES]->(target)
SET rel.deal_id = $deal_id, rel.reason = row.reason
"""

ADD_FINDING_CONTRADICTS = """
UNWIND $rows AS row
MERGE (source:Finding {deal_id: $deal_id, id: row.source_id})
  ON CREATE SET source:Placeholder
MERGE (target:Finding {deal_id: $deal_id, id: row.target_id})
  ON CREATE SET target:Placeholder
MERGE (source)-[rel:CONTRADICTS]->(target)
SET rel.deal_id = $deal_id, rel.reason = row.reason
"""

ADD_FINDING_SUPPORTS = """
UNWIND $rows AS row
MERGE (source:Finding {deal_id: $deal_id, id: row.source_id})
  ON CREATE SET source:Placeholder
MERGE (target:Finding {deal_id: $deal_id, id: row.target_id})
  ON CREATE SET target:Placeholder
MERGE (source)-[rel:SUPPORTS]->(target)
SET rel.deal_id = $deal_id, rel.reason = row.reason
"""

ADD_DOCUMENT_SUPERSEDES = """
UNWIND $rows AS row
MERGE (source:Document {deal_id: $deal_id, id: row.source_id})
  ON CREATE SET source:Placeholder
MERGE (target:Document {deal_id: $deal_id, id: row.target_id})
  ON CREATE SET target:Placeholder
MERGE (source)-[rel:SUPERSEDES]->(target)
SET rel.deal_id = $deal_id, rel.reason = row.reason
"""

# An attachment -> the e-mail that carried it.
ADD_DOCUMENT_ATTACHED_TO = """
UNWIND $rows AS row
MERGE (source:Document {deal_id: $deal_id, id: row.source_id})
  ON CREATE SET source:Placeholder
MERGE (target:Document {deal_id: $deal_id, id: row.target_id})
  ON CREATE SET target:Placeholder
MERGE (source)-[rel:ATTACHED_TO]->(target)
SET rel.deal_id = $deal_id, rel.reason = row.reason
"""

# The deal's relations of `$types` that are not in `$keep` ("TYPE|source id|target id"): what an
# earlier ingestion saw and the recomputed plan no longer holds. Deleted before nothing is added,
# so a reader never misses a relation that still holds.
REMOVE_RELATIONS_EXCEPT = """
MATCH (source:Finding|Document {deal_id: $deal_id})
      -[rel:SUPERSEDES|CONTRADICTS|SUPPORTS|ATTACHED_TO]->
      (target:Finding|Document {deal_id: $deal_id})
WHERE type(rel) IN $types
  AND NOT (type(rel) + '|' + source.id + '|' + target.id) IN $keep
DELETE rel
"""

LIST_RELATIONS = """
MATCH (source:Finding|Document {deal_id: $deal_id})
      -[rel:SUPERSEDES|CONTRADICTS|SUPPORTS|ATTACHED_TO]->
      (target:Finding|Document {deal_id: $deal_id})
WHERE ($type IS NULL OR type(rel) = $type)
  AND ($ids IS NULL OR source.id IN $ids OR target.id IN $ids)
  AND NOT (source:Finding AND (source.status = 'rejected' OR target.status = 'rejected'))
  AND NOT (source:Finding AND EXISTS {
    MATCH (doc:Document {deal_id: $deal_id})
    WHERE doc.id IN [source.document_id, target.document_id] AND doc.status <> 'completed'
  })
RETURN type(rel) AS type,
       source.id AS source_id,
       target.id AS target_id,
       CASE WHEN source:Document THEN 'document' ELSE 'finding' END AS between,
       coalesce(rel.reason, '') AS reason
ORDER BY between, type, source_id, target_id
"""

# ---------------------------------------------------------------- decisions, audit, Q&A

# One decision per (deal, finding), decided atomically: MERGE on the uniquely constrained key takes
# the lock, and the marker set only ON CREATE tells this write whether it was the first.
RECORD_DECISION = """
MERGE (decision:Decision {deal_id: $deal_id, finding_id: $finding_id})
ON CREATE SET decision += $props, decision.just_created = true
WITH decision, coalesce(decision.just_created, false) AS created
REMOVE decision.just_created
RETURN created, properties(decision) AS props
"""

GET_DECISION = """
MATCH (decision:Decision {deal_id: $deal_id, finding_id: $finding_id})
RETURN properties(decision) AS props
"""

# An undo: the decision goes only if it is the one made at `$at` (read and deleted at once).
WITHDRAW_DECISION = """
MATCH (decision:Decision {deal_id: $deal_id, finding_id: $finding_id})
WHERE decision.at = $at
WITH decision, properties(decision) AS props
DELETE decision
RETURN props
"""

# Append-only: an entry already written under the same id is left as it was.
APPEND_AUDIT = """
MERGE (entry:AuditEntry {deal_id: $deal_id, id: $entry_id})
ON CREATE SET entry += $props
"""

LIST_AUDIT = """
MATCH (entry:AuditEntry {deal_id: $deal_id})
RETURN properties(entry) AS props
ORDER BY entry.at, entry.id
"""

ADD_QA_ITEM = """
MERGE (item:QAItem {deal_id: $deal_id, id: $item_id})
ON CREATE SET item += $props, item.just_created = true
WITH item, coalesce(item.just_created, false) AS created
REMOVE item.just_created
RETURN created
"""

LIST_QA_ITEMS = """
MATCH (item:QAItem {deal_id: $deal_id})
RETURN properties(item) AS props
ORDER BY item.created_at, item.id
"""

REPLACE_QA_ITEM = """
MATCH (item:QAItem {deal_id: $deal_id, id: $item_id})
SET item += $props
RETURN count(item) AS replaced
"""

REMOVE_QA_ITEM = """
MATCH (item:QAItem {deal_id: $deal_id, id: $item_id})
DETACH DELETE item
RETURN count(*) AS removed
"""

# ---------------------------------------------------------------- the review grid
# Cells and runs are kept as JSON bodies (`data`): they are read whole, by their keys.

PUT_GRID_CELLS = """
UNWIND $rows AS row
MERGE (cell:GridCell {deal_id: row.deal_id, document_id: row.document_id,
                      wording: row.wording, reader: row.reader})
SET cell.data = row.data
"""

GRID_CELLS = """
MATCH (cell:GridCell {deal_id: $deal_id, reader: $reader})
WHERE cell.document_id IN $document_ids AND cell.wording IN $wordings
RETURN cell.data AS data
"""

PUT_GRID_RUN = """
MERGE (run:GridRun {deal_id: $deal_id, id: $run_id})
SET run.created_at = $created_at, run.data = $data
"""

GET_GRID_RUN = """
MATCH (run:GridRun {deal_id: $deal_id, id: $run_id})
RETURN run.data AS data
"""

LIST_GRID_RUNS = """
MATCH (run:GridRun {deal_id: $deal_id})
RETURN run.data AS data
ORDER BY run.created_at DESC, run.id DESC
LIMIT $limit
"""

# ---------------------------------------------------------------- channel bindings

BIND_CHANNEL = """
MERGE (binding:ChannelBinding {channel_key: $channel_key})
SET binding.deal_id = $deal_id
"""

UNBIND_CHANNEL = """
MATCH (binding:ChannelBinding {channel_key: $channel_key})
DELETE binding
"""

CHANNEL_DEAL = """
MATCH (binding:ChannelBinding {channel_key: $channel_key})
RETURN binding.deal_id AS deal_id
"""

LIST_BINDINGS = """
MATCH (binding:ChannelBinding)
RETURN binding.channel_key AS channel_key, binding.deal_id AS deal_id
ORDER BY channel_key
"""

# ---------------------------------------------------------------- relation statement choice

RELATION_STATEMENTS: dict[tuple[str, RelationType], str] = {
    ("finding", RelationType.SUPERSEDES): ADD_FINDING_SUPERSEDES,
    ("finding", RelationType.CONTRADICTS): ADD_FINDING_CONTRADICTS,
    ("finding", RelationType.SUPPORTS): ADD_FINDING_SUPPORTS,
    ("document", RelationType.SUPERSEDES): ADD_DOCUMENT_SUPERSEDES,
    ("document", RelationType.ATTACHED_TO): ADD_DOCUMENT_ATTACHED_TO,
}

# ---------------------------------------------------------------- vector spaces (the one composer)

# A Neo4j identifier we are willing to splice into a statement: ASCII letter first, then letters,
# digits or `_`, at most 63 characters. Nothing that could close a name or open a clause passes.
IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,62}")
_EMBEDDER_ID = re.compile(r"[\x21-\x7e]{1,128}")  # printable ASCII, no spaces
_SLUG_CHARS = re.compile(r"[^a-z0-9]+")
MAX_VECTOR_DIMENSIONS = 4096  # Neo4j 5's limit for `vector.dimensions`


@dataclass(frozen=True)
class VectorSpace:
    """Where one embedder's vectors live: its own property on `:ChunkVector` and its own index."""

    embedder_id: str
    index_name: str
    property_key: str


def vector_space(embedder_id: str) -> VectorSpace:
    """Map an embedder id (`minilm-l6-v2-int8`, `voyage-3.5-1024`) to safe, distinct names.

    The readable slug keeps names recognisable in `SHOW INDEXES`; the hash suffix keeps two ids
    that slug alike (`voyage-3.5` and `voyage_3_5`) apart.
    """
    if not _EMBEDDER_ID.fullmatch(embedder_id):
        raise ValueError(
            f"Embedder id {embedder_id!r} cannot name a vector index: use 1-128 printable "
            "ASCII characters without spaces."
        )
    slug = _SLUG_CHARS.sub("_", embedder_id.lower()).strip("_")[:32] or "embedder"
    suffix = hashlib.sha256(embedder_id.encode()).hexdigest()[:8]
    return VectorSpace(
        embedder_id=embedder_id,
        index_name=_identifier(f"chunk_vector_{slug}_{suffix}"),
        property_key=_identifier(f"embedding_{slug}_{suffix}"),
    )


def vector_index_statement(space: VectorSpace, dimensions: int) -> str:
    """The ONE place where Cypher text is composed: `CREATE VECTOR INDEX` for one embedder.

    Neo4j cannot take the indexed property key as a parameter, so it is spliced in after matching
    `IDENTIFIER` (and backticked); the index name and `dimensions` (an int within Neo4j's limits)
    are spliced alongside it, so each definition is one static statement per (embedder,
    dimensions) that the lint test checks for sample embedders. The similarity is cosine.
    """
    index_name = _identifier(space.index_name)
    property_key = _identifier(space.property_key)
    if type(dimensions) is not int or not 1 <= dimensions <= MAX_VECTOR_DIMENSIONS:
        raise ValueError(
            f"Vector dimensions must be an int between 1 and {MAX_VECTOR_DIMENSIONS}, "
            f"got {dimensions!r}."
        )
    return (
        f"CREATE VECTOR INDEX `{index_name}` IF NOT EXISTS\n"
        f"FOR (vec:ChunkVector) ON (vec.`{property_key}`)\n"
        "OPTIONS {indexConfig: {\n"
        f"  `vector.dimensions`: {dimensions},\n"
        "  `vector.similarity_function`: 'cosine'\n"
        "}}"
    )


def _identifier(name: str) -> str:
    if not IDENTIFIER.fullmatch(name):
        raise ValueError(f"{name!r} is not a safe Neo4j identifier ({IDENTIFIER.pattern}).")
    return name
