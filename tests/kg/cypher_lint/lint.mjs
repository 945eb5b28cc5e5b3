// Lints Cypher statements with Neo4j's own parser and semantic analysis (no server needed).
//
// stdin: either a JSON array of statements `[{name, query, params}]`, or an object
//   `{"schema": {labels, relationshipTypes, propertyKeys, graphSchema}, "statements": [...]}`
//   where `schema` declares the graph's vocabulary so that an unknown label, relationship type,
//   property key or a pattern against the model's direction is reported as a warning.
//   `params` is a list of parameter names or an object {name: sample value}; only those
//   parameters are declared for that statement, so any other `$param` is an error.
// stdout: a JSON array `[{name, diagnostics: [{version, severity, message, line, character}]}]`.
//
// Each statement is checked as Cypher 5 (the default language of Neo4j 5 databases) and as
// Cypher 25 (what newer Neo4j releases may default to), so it runs on either.
//
// Procedures and functions: only the ones listed below are declared, with the signatures the
// package ships as dumped from a Neo4j server (`testData.mockSchema`), so calling anything else,
// or calling these with the wrong arguments, is reported too.

import { lintCypherQuery, testData } from '@neo4j-cypher/language-support';

const CYPHER_VERSIONS = ['CYPHER 5', 'CYPHER 25'];

const PROCEDURES = [
  'db.awaitIndex',
  'db.awaitIndexes',
  'db.create.setNodeVectorProperty',
  'db.index.fulltext.queryNodes',
  'db.index.vector.queryNodes',
];

const FUNCTIONS = [
  'coalesce',
  'collect',
  'count',
  'properties',
  'size',
  'type',
];

const SEVERITY = { 1: 'error', 2: 'warning', 3: 'information', 4: 'hint' };

function pick(catalogue, names, kind) {
  const picked = {};
  for (const name of names) {
    const entry = catalogue[name];
    if (!entry) {
      throw new Error(`${kind} ${name} is not in the Neo4j catalogue shipped by the package`);
    }
    picked[name] = entry;
  }
  return picked;
}

function parameterMap(params) {
  if (Array.isArray(params)) {
    return Object.fromEntries(params.map((name) => [name, null]));
  }
  return { ...(params ?? {}) };
}

function dbSchemaFor(statement, vocabulary, version) {
  const catalogue = testData.mockSchema;
  // A declared parameter must not be `undefined`; JSON null is a fine placeholder.
  const parameters = Object.fromEntries(
    Object.entries(parameterMap(statement.params)).map(([k, v]) => [k, v ?? 'declared']),
  );
  return {
    defaultLanguage: version,
    parameters,
    procedures: { [version]: pick(catalogue.procedures[version], PROCEDURES, 'procedure') },
    functions: { [version]: pick(catalogue.functions[version], FUNCTIONS, 'function') },
    ...(vocabulary.labels ? { labels: vocabulary.labels } : {}),
    ...(vocabulary.relationshipTypes ? { relationshipTypes: vocabulary.relationshipTypes } : {}),
    ...(vocabulary.propertyKeys ? { propertyKeys: vocabulary.propertyKeys } : {}),
    ...(vocabulary.graphSchema ? { graphSchema: vocabulary.graphSchema } : {}),
  };
}

function lintStatements(statements, vocabulary = {}) {
  return statements.map((statement) => ({
    name: statement.name,
    diagnostics: CYPHER_VERSIONS.flatMap((version) =>
      lintCypherQuery(statement.query, dbSchemaFor(statement, vocabulary, version)).diagnostics.map(
        (d) => ({
          version,
          severity: SEVERITY[d.severity] ?? String(d.severity),
          message: d.message,
          line: d.range.start.line + 1,
          character: d.range.start.character + 1,
        }),
      ),
    ),
  }));
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const input = JSON.parse(await readStdin());
const statements = Array.isArray(input) ? input : input.statements;
const vocabulary = Array.isArray(input) ? {} : (input.schema ?? {});
process.stdout.write(JSON.stringify(lintStatements(statements, vocabulary), null, 2) + '\n');
