"""A question is read once (`manda.agent.frame`): the planner, the composers and retrieval take
what was read, and never read the question's text again.

The rule, checked on the syntax of every module under `agent/compose/`, `agent/planner.py` and
`retrieval/`:
- no `ask.question`: an `Ask` carries the frame, not the text;
- the question's text (`…frame.text`) is only ever handed on as what to search for (a `query=`
  argument, or a variable named `query` built for one), never read;
- none of the question readers (the intent and topic cues, the subject, period and line-item
  readers, the constraint parser, the passage ranker's term reader) is called there: their
  results are fields of the frame (stemming a topic's own cue words, `content_terms`, is no
  reading of the question and stays allowed).

Justified exceptions: `retrieval/query.py` is where a search query is read (once, kept by text,
so the frame and the search share it) and `retrieval/compound.py` splits it for that reading.
"""

from __future__ import annotations

import ast
from pathlib import Path

import manda

ROOT = Path(manda.__file__).parent
TAKE_THE_FRAME = [*sorted((ROOT / "agent" / "compose").glob("*.py")), ROOT / "agent" / "planner.py",
                  *sorted((ROOT / "retrieval").glob("*.py"))]
READERS_OF_A_QUERY = {ROOT / "retrieval" / "query.py", ROOT / "retrieval" / "compound.py"}
QUESTION_READERS = {
    "read_question", "cued_intent", "shape_for", "roles_asked", "asked_role", "question_terms",
    "parse_constraints", "years_back", "find_subjects", "find_periods", "named_groups",
    "facility_name", "question_statements", "asked_line_items", "implied_items", "expansions",
    "sub_queries", "find_line_items", "asked_derived", "period_words",
    "ranking_of", "answer_kind",
}


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _is_question_text(node: ast.AST) -> bool:
    if not isinstance(node, ast.Attribute):
        return False
    owner = node.value
    if node.attr == "question" and isinstance(owner, ast.Name) and owner.id == "ask":
        return True
    return node.attr == "text" and (
        (isinstance(owner, ast.Attribute) and owner.attr == "frame")
        or (isinstance(owner, ast.Name) and owner.id == "frame"))


def _handed_to_search(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Inside a `query=` argument, or the value of an assignment to `query`."""
    while node in parents:
        parent = parents[node]
        if isinstance(parent, ast.keyword):
            return parent.arg == "query"
        if isinstance(parent, ast.Assign):
            return all(isinstance(t, ast.Name) and t.id == "query" for t in parent.targets)
        if isinstance(parent, ast.stmt):
            return False
        node = parent
    return False


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = _parents(tree)
    found = []
    for node in ast.walk(tree):
        if _is_question_text(node) and not _handed_to_search(node, parents):
            found.append(f"line {node.lineno}: reads the question's text")
        if isinstance(node, ast.Call) and path not in READERS_OF_A_QUERY \
                and _called_name(node) in QUESTION_READERS:
            found.append(f"line {node.lineno}: calls {_called_name(node)}(), a question reader")
    return found


def test_the_planner_composers_and_retrieval_take_the_frame() -> None:
    assert len(TAKE_THE_FRAME) > 15, "the composers, the planner and retrieval are checked"
    offenders = {str(path.relative_to(ROOT)): found for path in TAKE_THE_FRAME
                 if (found := _offences(path))}
    assert offenders == {}


def test_the_rule_sees_a_composer_reading_the_question(tmp_path: Path) -> None:
    """The scan finds what it forbids (a regex on the text, a reader, the old attribute) and
    lets the question be searched for."""
    bad = tmp_path / "composer.py"  # parsed, never imported
    bad.write_text("def f(ask):\n"
                   "    PATTERN.search(ask.frame.text)\n"
                   "    shape_for(ask.question)\n"
                   "    query = f'{ask.frame.text} {ask.period}'\n"
                   "    return search(query=ask.frame.text)\n", encoding="utf-8")
    assert sorted(_offences(bad)) == ["line 2: reads the question's text",
                                      "line 3: calls shape_for(), a question reader",
                                      "line 3: reads the question's text"]


def test_the_frame_module_is_where_the_question_is_read() -> None:
    frame = (ROOT / "agent" / "frame.py").read_text(encoding="utf-8")
    assert "def read_question" in frame
    called = {_called_name(n) for n in ast.walk(ast.parse(frame)) if isinstance(n, ast.Call)}
    assert {"cued_intent", "shape_for", "roles_asked", "find_subjects", "parse_constraints",
            "question_terms"} <= called
