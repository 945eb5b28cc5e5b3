"""Shared pieces of the retrieval probes: evidence questions, their files, and recall@k.

Two probes. The sample deals (always there): one question per ground-truth fact group of
`manda.sample.facts`, found when a hit's document and location cover one of the places the fact is
stated. The 10-K filings (evals/retrieval/, when present): real SEC filing pages stored as text,
rendered to PDFs here at run time, with analyst questions whose evidence page was checked by hand.
Used by bench/fusion_probe.py (the figures) and tests/retrieval/test_filings_probe.py (the bar).
"""

from __future__ import annotations

import gzip
import json
import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from reportlab.lib.pagesizes import LETTER
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen import canvas

from manda.app import Manda
from manda.embed.port import Embedder
from manda.errors import UnreadableFileError
from manda.ingest.parsers import parse_file
from manda.kg.embedded.fulltext import match_expression
from manda.models import SearchHit
from manda.retrieval.hybrid import FusionWeights, HybridSearch, Routing
from manda.sample import generate_sample_rooms
from manda.sample.facts import FACTS, location_matches

REPO = Path(__file__).resolve().parents[1]
EVALS = REPO / "evals" / "retrieval"
FILINGS_DIR = EVALS / "filings"
FILINGS_QUESTIONS = EVALS / "filings_questions.json"
FILINGS_DEAL = "filings"

FONT = "Helvetica"
MARGIN = 36.0
_SKIPPED_SUBJECTS = {"prompt_injection"}  # not a question an analyst asks


@dataclass(frozen=True)
class Question:
    """A question and every (document, location label) that holds its answer."""

    id: str
    deal: str
    text: str
    evidence: tuple[tuple[str, str], ...]
    split: str = "all"  # the filings probe: "dev" (tune here) or "heldout" (judge here)

    def rank_in(self, hits: Sequence[SearchHit], *, distinct: bool = False) -> int | None:
        """1-based rank of the first hit on the evidence, or None when no hit is.

        With `distinct`, hits on a location already seen do not count: the rank among distinct
        locations (document and page, else location label).
        """
        if distinct:
            seen: set[tuple[str, str]] = set()
            unique = []
            for hit in hits:
                place = (hit.document, str(hit.location.page or hit.location.label))
                if place not in seen:
                    seen.add(place)
                    unique.append(hit)
            hits = unique
        for rank, hit in enumerate(hits, start=1):
            if any(
                hit.document == doc and location_matches(loc, hit.location.label)
                for doc, loc in self.evidence
            ):
                return rank
        return None


@dataclass
class Probe:
    """Files to ingest per deal and the questions asked of them."""

    name: str
    files: dict[str, list[Path]]
    questions: list[Question]

    def half(self, split: str) -> Probe:
        """The same files with only the questions of one split ("dev" or "heldout")."""
        return Probe(f"{self.name} ({split})", self.files,
                     [q for q in self.questions if q.split == split])


@dataclass
class Recall:
    """Ranks of the evidence per question (None: not in the results)."""

    ranks: dict[str, int | None] = field(default_factory=dict)

    def at(self, k: int) -> float:
        if not self.ranks:
            return 0.0
        return sum(1 for r in self.ranks.values() if r is not None and r <= k) / len(self.ranks)

    def misses(self, k: int) -> list[str]:
        return sorted(q for q, r in self.ranks.items() if r is None or r > k)


# ---------------------------------------------------------------- the filings probe


def filings_present() -> bool:
    return FILINGS_QUESTIONS.is_file() and any(FILINGS_DIR.glob("*.json.gz"))


def load_filings() -> list[dict[str, Any]]:
    """The stored filings: {filename, filing, source, license, pages}, sorted by file name."""
    records = []
    for path in sorted(FILINGS_DIR.glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            records.append(json.load(fh))
    return records


def filing_questions() -> list[dict[str, Any]]:
    return list(json.loads(FILINGS_QUESTIONS.read_text(encoding="utf-8"))["questions"])


def render_filing(record: dict[str, Any], dest: Path) -> Path:
    """One PDF page per stored page, text as stored (the font shrinks if a page is long)."""
    path = dest / record["filename"]
    filing = record.get("filing", {})
    pdf = canvas.Canvas(str(path), pagesize=LETTER, invariant=1)
    pdf.setTitle(f"{filing.get('company', record['filename'])} {filing.get('form', '')}".strip())
    width, height = LETTER
    for text in record["pages"]:
        raw_lines = text.replace("\x7f", "\u2022").split("\n")
        size = 8.0
        while True:
            lines = [
                part
                for line in raw_lines
                for part in (simpleSplit(line, FONT, size, width - 2 * MARGIN) or [""])
            ]
            leading = size * 1.2
            if len(lines) * leading <= height - 2 * MARGIN or size <= 4.0:
                break
            size -= 0.5
        pdf.setFont(FONT, size)
        y = height - MARGIN
        for line in lines:
            pdf.drawString(MARGIN, y, line)
            y -= leading
        pdf.showPage()
    pdf.save()
    return path


def filings_probe(dest: Path, *, only: set[str] | None = None) -> Probe:
    """Render the stored filings under `dest` as one deal and load their questions.

    `only` keeps the filings with those file names (and their questions): a smaller deal.
    """
    dest.mkdir(parents=True, exist_ok=True)
    records = [r for r in load_filings() if only is None or r["filename"] in only]
    files = [render_filing(record, dest) for record in records]
    names = {record["filename"] for record in records}
    questions = [
        Question(
            id=q["id"],
            deal=FILINGS_DEAL,
            text=q["question"],
            evidence=tuple((q["document"], f"p.{page}") for page in q["pages"]),
            split=q.get("split", "all"),
        )
        for q in filing_questions()
        if q["document"] in names
    ]
    return Probe(name="10-K filings", files={FILINGS_DEAL: files}, questions=questions)


# ---------------------------------------------------------------- the sample-deal probe


def _sample_question_text(subject: str, period: str | None) -> str:
    head, _, tail = subject.partition(":")
    if head == "person":
        return f"Who is {tail.title()}?"
    words = head.replace("_", " ")
    if tail:
        words = f"{words} {tail}"
    return f"What is the {words}{f' ({period})' if period else ''}?"


def sample_questions() -> list[Question]:
    """One question per (deal, subject, period) of the ground truth, stated somewhere."""
    groups: dict[tuple[str, str, str | None], list[tuple[str, str]]] = defaultdict(list)
    for fact in FACTS:
        if fact.value is None or fact.subject in _SKIPPED_SUBJECTS:
            continue
        place = (fact.file, fact.location)
        key = (fact.deal, fact.subject, fact.period)
        if place not in groups[key]:
            groups[key].append(place)
    return [
        Question(
            id=f"{deal}:{subject}:{period or '-'}",
            deal=deal,
            text=_sample_question_text(subject, period),
            evidence=tuple(places),
        )
        for (deal, subject, period), places in groups.items()
    ]


def sample_probe(dest: Path) -> Probe:
    rooms = generate_sample_rooms(dest)
    return Probe(
        name="sample deals",
        files={deal: [folder] for deal, folder in rooms.items()},
        questions=sample_questions(),
    )


# ---------------------------------------------------------------- measuring


async def ingest_probe(app: Manda, probe: Probe) -> list[str]:
    """Ingest every deal of the probe; returns the skipped files with their reasons."""
    skipped: list[str] = []
    for deal, paths in probe.files.items():
        report = await app.ingest.ingest(deal, paths)
        skipped += [f"{s.filename}: {s.reason}" for s in report.skipped]
    return skipped


async def measure(
    search: HybridSearch, probe: Probe, *, k: int = 10, distinct: bool = True,
    merge: bool = True,
) -> Recall:
    """Ranks of the evidence in the top `k`; `distinct` counts distinct locations only.

    `merge` asks the search itself for distinct locations; without it the search returns raw
    chunks (as before locations were merged) and, with `distinct`, they are de-duplicated here.
    """
    result = Recall()
    for question in probe.questions:
        if merge:
            hits = await search.search(question.deal, question.text, k=k)
        else:
            hits = await search.search(question.deal, question.text, k=k * 4 if distinct else k,
                                       distinct=False)
        rank = question.rank_in(hits, distinct=distinct)
        result.ranks[question.id] = rank if rank is not None and rank <= k else None
    return result


Fusion = Literal["weighted", "rrf"]


@dataclass(frozen=True)
class SearchSetting:
    """One way of searching: which lists, how they are fused, and whether the graph expands."""

    name: str
    dense: bool = True
    weights: FusionWeights = field(default_factory=FusionWeights)
    fusion: Fusion = "weighted"
    expand_graph: bool = False
    expand_vocabulary: bool = True
    routing: Routing | None = field(default_factory=Routing)
    split_compound: bool = True
    pool: int = 60
    sibling_weight: float = 0.0

    def build(self, app: Manda, embedder: Embedder | None = None) -> HybridSearch:
        return HybridSearch(
            graph=app.graph,
            embedder=(embedder or app.embedder) if self.dense else None,
            weights=self.weights,
            fusion=self.fusion,
            expand_graph=self.expand_graph,
            expand_vocabulary=self.expand_vocabulary,
            routing=self.routing,
            split_compound=self.split_compound,
            pool=self.pool,
            sibling_weight=self.sibling_weight,
        )


DENSE_WEIGHTS = (0.3, 0.4, 0.5, 0.6, 0.65, 0.7, 0.8)
FACT_WEIGHTS = (0.0, 0.2, 0.4, 0.6)


def search_settings(expand_graph: bool) -> list[SearchSetting]:
    """BM25 only, dense only, equal-weight RRF, and weighted fusion over a grid of weights.

    Weighted fusion has three channels (FusionWeights): dense and BM25 share 1.0 between them,
    and the knowledge-graph `facts` channel is added on top at each of FACT_WEIGHTS.
    """
    settings = [
        SearchSetting(
            "BM25 only (chunks)",
            dense=False,
            weights=FusionWeights(dense=0.0, bm25=1.0, facts=0.0),
            expand_graph=expand_graph,
        ),
        SearchSetting(
            "dense only",
            weights=FusionWeights(dense=1.0, bm25=0.0, facts=0.0),
            expand_graph=expand_graph,
        ),
        SearchSetting("RRF, equal weights (k=60)", fusion="rrf", expand_graph=expand_graph),
    ]
    default = FusionWeights()
    settings += [
        SearchSetting(
            f"weighted, dense {d:.2f} / bm25 {1 - d:.2f} / facts {f:.1f}"
            + (" (default)" if (round(d, 2), round(1 - d, 2), f) == (
                default.dense, default.bm25, default.facts) else ""),
            weights=FusionWeights(dense=round(d, 2), bm25=round(1 - d, 2), facts=f),
            expand_graph=expand_graph,
        )
        for f in FACT_WEIGHTS
        for d in DENSE_WEIGHTS
    ]
    return settings


def page_bm25(probe: Probe, *, k: int = 10) -> Recall:
    """The baseline the issue names: plain BM25 over whole pages (sections for non-PDF files)."""
    db = sqlite3.connect(":memory:")
    try:
        db.execute(
            "CREATE VIRTUAL TABLE pages USING fts5("
            "deal UNINDEXED, document UNINDEXED, location UNINDEXED, text, "
            "tokenize = 'porter unicode61')"
        )
        for deal, paths in probe.files.items():
            for path in _expand(paths):
                try:
                    parsed = parse_file(path)
                except UnreadableFileError:
                    continue  # ingestion skips it too (the sample room has a locked PDF)
                db.executemany(
                    "INSERT INTO pages (deal, document, location, text) VALUES (?, ?, ?, ?)",
                    [
                        (deal, parsed.filename, s.location.label, s.text)
                        for s in parsed.sections
                        if s.text.strip()
                    ],
                )
        result = Recall()
        for question in probe.questions:
            expression = match_expression(question.text)
            rows = []
            if expression is not None:
                rows = db.execute(
                    "SELECT document, location FROM pages WHERE pages MATCH ? AND deal = ? "
                    "ORDER BY bm25(pages), rowid LIMIT ?",
                    (expression, question.deal, k),
                ).fetchall()
            result.ranks[question.id] = next(
                (
                    rank
                    for rank, (document, label) in enumerate(rows, start=1)
                    if any(
                        document == doc and location_matches(loc, label)
                        for doc, loc in question.evidence
                    )
                ),
                None,
            )
        return result
    finally:
        db.close()


def _expand(paths: Sequence[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(p for p in sorted(path.rglob("*")) if p.is_file())
        else:
            files.append(path)
    return files
