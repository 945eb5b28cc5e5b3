"""The review grid's speed offline and its tokens with Claude: figures, not a test.

Offline: the dev contracts (26 documents, numbered PDFs, Word, a scan read by OCR, German and
French) ingested into a scratch home, then a grid of every standard column read cold (documents
a minute, with and without the embedder's meaning channel), and asked again (every cell kept:
nothing read). `--copies N` puts N copies of the room in the deal (each file made distinct) for a
larger run.

Claude: the same grid through the real SDK against the local Messages API
(`manda.testing.anthropic_server`), answered by `GridClaude` (a careful reader answering from the
dev set's ground truth). It measures what a real run sends and is billed for: requests and
input/output tokens per document, the prompt cache's reads and writes (the system prompt and the
tool are the cached prefix), and the cost at the configured model's list price. The counts are
the local server's (`fake_token_count`, about four characters a token), checked against the usage
the SDK returned; a real tokenizer differs by a few percent, the structure does not. The fake
model answers at once: the time shown is Manda's own.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from manda.app import Manda
from manda.config import Settings
from manda.evals.grid_truth import load_truth
from manda.grid.columns import standard_column
from manda.grid.offline import OfflineReader
from manda.grid.service import GridService
from manda.sample.grid_dev import DEV_DEAL, generate_grid_dev_contracts
from manda.testing.anthropic_server import FakeAnthropicServer
from manda.testing.grid_claude import GridClaude

TRUTH = Path(__file__).resolve().parents[1] / "evals" / "grid" / "dev.yaml"
KEY = "bench-key"


def _room(dest: Path, copies: int) -> Path:
    written = generate_grid_dev_contracts(dest / "one")
    room = next(iter(written.values())).parents[1]
    if copies <= 1:
        return room
    many = dest / "many" / DEV_DEAL
    for n in range(copies):
        for path in room.rglob("*.*"):
            target = many / f"copy {n + 1}" / path.relative_to(room)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            if target.suffix == ".pdf":  # other bytes, another document
                with target.open("ab") as out:
                    out.write(f"\n%% copy {n + 1}\n".encode())
    return many


async def offline(home: Path, copies: int) -> None:
    truth = load_truth(TRUTH)
    columns = [standard_column(k) for k in truth.columns]
    with tempfile.TemporaryDirectory() as rooms:
        room = _room(Path(rooms), copies)
        async with Manda(Settings(MANDA_HOME=home), workflows=False) as app:
            started = time.perf_counter()
            report = await app.ingest.ingest(DEV_DEAL, [room])
            print(f"ingest: {len(report.ingested)} documents, {report.pages} pages in "
                  f"{time.perf_counter() - started:.1f}s (OCR of the scan included)")
            for label, embedder in (("words and meaning", app.embedder), ("words only", None)):
                service = GridService(graph=app.graph, reader=OfflineReader(embedder=embedder))
                app.__dict__["grid"] = service
                run = await app.deals.start_grid(DEV_DEAL, columns, by="bench",
                                                 kind="contract", queue=False)
                started = time.perf_counter()
                grid = await app.deals.run_grid(run)
                cold = time.perf_counter() - started
                assert grid.spend.documents_read == len(grid.rows)
                again = await app.deals.start_grid(DEV_DEAL, columns, by="bench",
                                                   kind="contract", queue=False)
                started = time.perf_counter()
                kept = await app.deals.run_grid(again)
                warm = time.perf_counter() - started
                assert kept.spend.documents_read == 0  # every cell kept: nothing read again
                await _forget(app, run.id, again.id)
                print(f"offline ({label}): {len(grid.rows)} documents × {len(columns)} columns "
                      f"in {cold:.2f}s = {len(grid.rows) / cold * 60:.0f} documents a minute; "
                      f"asked again {warm:.2f}s (nothing read)")


async def _forget(app: Manda, *run_ids: str) -> None:
    """Drop the kept cells so the next reader reads cold (a scratch home: straight to SQLite)."""
    import sqlite3

    path = app.settings.home_dir / "manda.db"
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM grid_cells")


async def claude(home: Path) -> None:
    truth = load_truth(TRUTH)
    columns = [standard_column(k) for k in truth.columns]
    with tempfile.TemporaryDirectory() as rooms:
        room = _room(Path(rooms), 1)
        async with FakeAnthropicServer(api_key=KEY, handler=GridClaude(truth)) as server:
            settings = Settings(MANDA_HOME=home, ANTHROPIC_API_KEY=KEY,
                                ANTHROPIC_BASE_URL=server.base_url)
            async with Manda(settings, workflows=False) as app:
                await app.ingest.ingest(DEV_DEAL, [room])
                server.requests.clear()
                run = await app.deals.start_grid(DEV_DEAL, columns, by="bench", kind="contract",
                                                 queue=False)
                started = time.perf_counter()
                grid = await app.deals.run_grid(run)
                seconds = time.perf_counter() - started
            model = settings.claude_model
    asked = [r for r in server.requests if r.path == "/v1/messages"]
    spend = grid.spend
    documents = len(grid.rows)
    per = {name: value / documents for name, value in (
        ("input", spend.input_tokens), ("cache read", spend.cache_read_tokens),
        ("cache write", spend.cache_write_tokens), ("output", spend.output_tokens))}
    prompt = [len(r.system) for r in asked]
    print(f"claude path ({model} list price, local Messages API): {documents} documents, "
          f"{len(asked)} requests ({len(asked) / documents:.2f} a document), "
          f"{seconds:.2f}s of Manda's own time")
    print("  tokens a document: " + ", ".join(f"{k} {v:,.0f}" for k, v in per.items())
          + f"; total {spend.tokens / documents:,.0f}")
    print(f"  cost: ${spend.cost_usd or 0:.4f} the grid, "
          f"${(spend.cost_usd or 0) / documents:.5f} a document; system prompt "
          f"{statistics.mean(prompt):,.0f} characters, cached after the first documents")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=1, help="copies of the dev room")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        await offline(Path(tmp) / "offline", args.copies)
        await claude(Path(tmp) / "claude")


if __name__ == "__main__":
    asyncio.run(main())
