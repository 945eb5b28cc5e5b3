"""Every Cypher statement of the Neo4j adapter, checked by Neo4j's own parser and semantic analysis.

No Neo4j server runs here, so `tests/kg/cypher_lint/lint.mjs` runs `@neo4j-cypher/language-support`
(the parser and semantic analysis Neo4j's tools use) over every statement constant, the schema
statements and the composed vector index statements, with the graph's labels, relationship types,
property keys, paths and each statement's parameters declared, as Cypher 5 and as Cypher 25.
Errors AND warnings fail the test.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from manda.kg.neo4j import cypher, schema
from manda.models import AuditEntry, Chunk, Deal, Document, Finding, QAItem, ReviewDecision

LINT_DIR = Path(__file__).parent / "cypher_lint"
PACKAGE = LINT_DIR / "node_modules" / "@neo4j-cypher" / "language-support"
PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")

SAMPLE_EMBEDDERS = (("minilm-l6-v2-int8", 384), ("voyage-3.5-1024", 1024), ("voyage_3_5", 8))

# Statements the linter must flag: (query, declared parameters, a word the message must contain).
# They prove the check is not vacuous.
BROKEN: dict[str, tuple[str, list[str], str]] = {
    "broken.syntax": ("MATCH (chunk:Chunk RETURN chunk", [], "Invalid input"),
    "broken.undeclared_parameter": (
        "MATCH (chunk:Chunk {deal_id: $deal}) RETURN chunk.id AS id",
        ["deal_id"],
        "Parameter $deal is not defined",
    ),
    "broken.unknown_label": ("MATCH (chunk:Chunks) RETURN chunk.id AS id", [], "Chunks"),
    "broken.unknown_property": ("MATCH (chunk:Chunk) RETURN chunk.txet AS text", [], "txet"),
    "broken.wrong_direction": (
        "MATCH (doc:Document)-[:PART_OF]->(chunk:Chunk) RETURN chunk.id AS id",
        [],
        "PART_OF",
    ),
    "broken.argument_type": (
        "CALL db.index.vector.queryNodes('chunk_vector', 'ten', [1.0]) YIELD node, score "
        "RETURN node.chunk_id AS id, score",
        [],
        "Type mismatch",
    ),
    "broken.unknown_procedure": ("CALL db.index.vector.query('x', 1, [1.0])", [], "Procedure"),
    "broken.undefined_variable": ("MATCH (chunk:Chunk) RETURN document.id AS id", [], "document"),
}


def statement_constants() -> dict[str, str]:
    """Every statement the adapter can send, by a readable name."""
    found = {
        f"cypher.{name}": value
        for name, value in vars(cypher).items()
        if name.isupper() and isinstance(value, str)
    }
    for number, statement in enumerate(schema.SCHEMA_STATEMENTS):
        found[f"schema.SCHEMA_STATEMENTS[{number}]"] = statement
    for embedder_id, dimensions in SAMPLE_EMBEDDERS:
        space = cypher.vector_space(embedder_id)
        found[f"vector_index_statement({embedder_id!r})"] = cypher.vector_index_statement(
            space, dimensions
        )
    return found


def vocabulary() -> dict[str, Any]:
    models = (Deal, Document, Chunk, Finding, ReviewDecision, AuditEntry, QAItem)
    keys = {field for model in models for field in model.model_fields}
    # Keys of the store's own nodes and relationships, and of the `$rows` maps it UNWINDs.
    keys |= {"embedder_id", "chunk_id", "channel_key", "reason", "source_id", "target_id"}
    keys |= {"wording", "reader", "data"}  # the review grid's cells and runs (bodies as JSON)
    keys |= {cypher.vector_space(e).property_key for e, _ in SAMPLE_EMBEDDERS}
    return {
        "labels": list(cypher.LABELS),
        "relationshipTypes": list(cypher.RELATIONSHIP_TYPES),
        "propertyKeys": sorted(keys),
        "graphSchema": [
            {"from": source, "relType": rel, "to": target}
            for source, rel, target in cypher.GRAPH_SCHEMA
        ],
    }


def declared(query: str) -> list[str]:
    return sorted(set(PARAMETER.findall(query)))


def run_linter(statements: dict[str, tuple[str, list[str]]]) -> dict[str, list[dict[str, Any]]]:
    """Lint `{name: (query, parameter names)}`; return the diagnostics of each statement."""
    node = shutil.which("node")
    if node is None or not PACKAGE.is_dir():
        pytest.skip(
            "The Cypher linter is not installed (needs `node` and tests/kg/cypher_lint/"
            "node_modules): run `npm ci --prefix tests/kg/cypher_lint`."
        )
    payload = {
        "schema": vocabulary(),
        "statements": [
            {"name": name, "query": query, "params": params}
            for name, (query, params) in statements.items()
        ],
    }
    completed = subprocess.run(
        [node, "lint.mjs"],
        cwd=LINT_DIR,
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, f"lint.mjs failed:\n{completed.stderr}"
    return {item["name"]: item["diagnostics"] for item in json.loads(completed.stdout)}


@pytest.fixture(scope="module")
def diagnostics() -> dict[str, list[dict[str, Any]]]:
    clean = {name: (query, declared(query)) for name, query in statement_constants().items()}
    broken = {name: (query, params) for name, (query, params, _) in BROKEN.items()}
    return run_linter({**clean, **broken})


def test_the_adapter_has_statements_to_lint() -> None:
    names = statement_constants()
    # A guard against collecting nothing: the big ones must be there.
    for expected in ("cypher.RECORD_DECISION", "cypher.VECTOR_SEARCH", "cypher.FULLTEXT_SEARCH"):
        assert expected in names
    assert len(schema.SCHEMA_STATEMENTS) >= 10
    assert sum(name.startswith("vector_index_statement") for name in names) == 3


def test_every_statement_is_clean(diagnostics: dict[str, list[dict[str, Any]]]) -> None:
    statements = statement_constants()
    assert set(statements) <= set(diagnostics), "some statements were not linted"
    dirty = {
        name: [
            f"{d['version']} {d['severity']} {d['line']}:{d['character']} {d['message']}"
            for d in found
        ]
        for name in statements
        if (found := diagnostics[name])
    }
    assert dirty == {}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_the_linter_flags_broken_statements(
    name: str, diagnostics: dict[str, list[dict[str, Any]]]
) -> None:
    *_, expected = BROKEN[name]
    for version in ("CYPHER 5", "CYPHER 25"):
        messages = [d["message"] for d in diagnostics[name] if d["version"] == version]
        assert any(expected in message for message in messages), (version, messages)
