"""The Claude path's evidence on the real filings: is the evidence page in what the model reads?

Every filings question is asked through the real answering graph with the real `anthropic` SDK,
against the local Messages API (`manda.testing.anthropic_server`). Its scripted model does what
the system prompt directs: on the first turn it calls `query_knowledge_base` with the question
and the metric and period Manda read (and `topic_brief` too for a topic question), then answers
from what it was given. For each question the script records whether the evidence page (the
`<excerpt id="S3" file="File.pdf" loc="p.N" …>` of a page the answer key names) is in what the
model read,
whether the evidence snippet itself is, and the input tokens that took (the fake's tokenizer:
about four characters a token; the final turn carries everything read before it). Dev and
held-out apart. Run: `.venv/bin/python bench/filings_claude_evidence.py [--keep DIR] [--misses]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import anthropic
from _answer_key import load_key
from _probe import FILINGS_DEAL, filing_questions, filings_present, filings_probe, ingest_probe

from manda.agent.context import AgentContext
from manda.agent.service import AnswerService
from manda.app import Manda
from manda.config import Settings
from manda.llm.claude import ClaudeChatModel
from manda.testing.anthropic_server import (
    FakeAnthropicServer,
    RecordedRequest,
    Reply,
    fake_token_count,
    text_reply,
)

GOALS = {"evidence_read": 0.95, "tokens": 12_000}  # held-out, see README
# an excerpt as `tools.render_passages` writes it: with its evidence id, file and place
_EXCERPT = re.compile(r'<excerpt id="([^"]+)" file="([^"]+)" loc="([^"]+)"')


class NotMeasuring(SystemExit):
    """The excerpts the model read no longer parse: the bench would report 0 and mean nothing."""
_READING = re.compile(r"\b(metric|period): ([^;\n|]+)")
_TOPIC = re.compile(r"\btopic: (\w+) \(call topic_brief\)")


def scripted_model(request: RecordedRequest) -> Reply:
    """Claude as the system prompt directs it: search first (a topic brief for a topic
    question), then answer citing the first excerpt it read."""
    messages = request.body["messages"]
    if any(isinstance(m["content"], list) and any(b.get("type") == "tool_result"
                                                  for b in m["content"]) for m in messages):
        read = _read_text(request)
        first = _EXCERPT.search(read.split("</document_excerpts>", 1)[-1]) or _EXCERPT.search(read)
        cite = f" [{first.group(1)}]" if first else ""  # cited by id, as the prompt asks
        return text_reply(f"From the excerpts returned{cite}.")
    asked = request.last_user_text
    question = asked.split("\n", 1)[0].removeprefix("Question: ").strip()
    reading = dict(_READING.findall(asked))
    metric = reading.get("metric")
    calls: list[dict[str, Any]] = [{
        "type": "tool_use", "name": "query_knowledge_base",
        "input": {k: v for k, v in {"query": question, "subject": [metric] if metric else None,
                                    "period": reading.get("period")}.items() if v}}]
    if topic := _TOPIC.search(asked):  # "topic: pnl (call topic_brief)", as the prompt says
        calls.append({"type": "tool_use", "name": "topic_brief",
                      "input": {"topic": topic.group(1), "question": question}})
    return Reply(content=calls)


def _read_text(request: RecordedRequest) -> str:
    """Everything the model reads in one request: system prompt, messages, tool results."""
    parts = [request.system]
    for message in request.body["messages"]:
        content = message["content"]
        if isinstance(content, str):
            parts.append(content)
            continue
        for block in content:
            if block.get("type") == "text":
                parts.append(block.get("text", ""))
            elif block.get("type") == "tool_result":
                inner = block.get("content")
                parts.append(inner if isinstance(inner, str) else json.dumps(inner))
    return "\n".join(parts)


def _normalised(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").split()).lower()


@dataclass(frozen=True)
class Read:
    id: str
    split: str
    page_read: bool  # an excerpt of an evidence page is in what the model read
    snippet_read: bool  # the evidence snippet itself is
    tokens: int  # input tokens of the final turn (all it read)
    turns: int


async def run(root: Path, split: str | None) -> list[Read]:
    probe = filings_probe(root / "filings")
    key = load_key()
    questions = [q for q in filing_questions() if split is None or q["split"] == split]
    out: list[Read] = []
    async with FakeAnthropicServer(api_key="bench-key", handler=scripted_model) as server, \
            Manda(Settings(MANDA_HOME=root / "home")) as app:
        skipped = await ingest_probe(app, probe)
        if skipped:
            print("skipped: " + "; ".join(skipped))
        client = anthropic.AsyncAnthropic(api_key="bench-key", base_url=server.base_url,
                                          max_retries=0)
        model = ClaudeChatModel(client=client, model="claude-bench")
        service = AnswerService(AgentContext(graph=app.graph, search=app.search,
                                             memory=app.memory, model=model,
                                             embedder=app.embedder))
        for q in questions:
            before = len(server.requests)
            await service.ask(FILINGS_DEAL, q["question"])
            requests = server.requests[before:]
            read = "\n".join(_read_text(r) for r in requests)
            places = {(d, loc) for _, d, loc in _EXCERPT.findall(read)}
            if "<excerpt " in read and not places:
                raise NotMeasuring(
                    f"{q['id']}: the model read excerpts, but none matches the format this bench "
                    "parses (bench/filings_claude_evidence.py _EXCERPT); update it to what "
                    "manda.agent.tools.render_passages writes, or every figure below is 0")
            k = key[q["id"]]
            out.append(Read(
                id=q["id"], split=q["split"],
                page_read=any((k.document, f"p.{p}") in places for p in k.pages),
                snippet_read=_normalised(q["evidence"]) in _normalised(read),
                tokens=fake_token_count(_read_text(requests[-1])) if requests else 0,
                turns=len(requests)))
        await client.close()
    return out


def report(reads: list[Read], misses: bool) -> None:
    print("\n| check | dev | held-out |\n|---|---|---|")
    halves = [[r for r in reads if r.split == s] for s in ("dev", "heldout")]

    def share(rows: list[Read], test: Any) -> str:
        if not rows:
            return "-"
        hits = sum(1 for r in rows if test(r))
        return f"{hits / len(rows):.3f} ({hits}/{len(rows)})"

    budget = GOALS["tokens"]
    lines = [
        ("evidence page in what the model reads", lambda r: r.page_read),
        ("evidence snippet in what it reads", lambda r: r.snippet_read),
        (f"evidence page read within {budget:,} input tokens",
         lambda r: r.page_read and r.tokens <= budget),
    ]
    for label, test in lines:
        print(f"| {label} | " + " | ".join(share(h, test) for h in halves) + " |")
    for name, half in zip(("dev", "held-out"), halves, strict=True):
        if half:
            tokens = sorted(r.tokens for r in half)
            print(f"{name}: input tokens of the final turn p50 {tokens[len(tokens) // 2]:,}, "
                  f"max {tokens[-1]:,}; turns {max(r.turns for r in half)} at most")
    print(f"\ngoal on held-out: evidence page read ≥ {GOALS['evidence_read']}, within "
          f"{budget:,} input tokens")
    if misses:
        for r in reads:
            if not r.page_read or r.tokens > budget:
                print(f"- {r.id} ({r.split}): page read {r.page_read}, snippet {r.snippet_read}, "
                      f"{r.tokens:,} tokens")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="a folder to keep the ingested home in")
    parser.add_argument("--split", choices=("dev", "heldout"), help="one split only")
    parser.add_argument("--misses", action="store_true", help="list the questions missed")
    args = parser.parse_args()
    if not filings_present():
        raise SystemExit("evals/retrieval/filings is missing: see evals/retrieval/PROVENANCE.md")
    with tempfile.TemporaryDirectory(prefix="manda-claude-evidence-") as tmp:
        reads = asyncio.run(run(args.keep or Path(tmp), args.split))
    print(f"{len(reads)} questions through the Claude path (local Messages API, scripted model)")
    report(reads, args.misses)


if __name__ == "__main__":
    main()
