"""The keyword index survives the process: saved per deal beside the database, opened by the next
process (several at once build it once), caught up on other processes' writes, and never trusted
when damaged, foreign, ahead of the store or built from another copy of the database."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import signal
import sqlite3
import sys
import textwrap
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from manda.kg.embedded import EmbeddedKnowledgeGraph, keyword_files
from manda.kg.embedded.keyword_files import STAMP, deal_stem
from manda.models import DocumentStatus

if TYPE_CHECKING:
    from conftest import ModelFactory

# A second process on the same home: runs one command a line from stdin and answers one JSON line
# with the hits and what the keyword index logged meanwhile ("indexed": built, "opened": loaded).
CHILD = textwrap.dedent(
    """
    import asyncio, json, logging, sys
    from pathlib import Path
    from manda.kg.embedded import EmbeddedKnowledgeGraph

    class Lines(logging.Handler):
        def __init__(self):
            super().__init__()
            self.lines = []
        def emit(self, record):
            self.lines.append(record.getMessage())

    async def main(path, deal_id):
        lines = Lines()
        logger = logging.getLogger("manda.kg.embedded")
        logger.addHandler(lines)
        logger.setLevel(logging.INFO)
        graph = EmbeddedKnowledgeGraph(Path(path))
        await graph.start()
        print(json.dumps({"ready": True}), flush=True)
        for line in sys.stdin:
            hits = await graph.fulltext_search(deal_id, line.strip(), 10)
            print(json.dumps({"ids": sorted(h.id for h in hits), "log": lines.lines}), flush=True)
            lines.lines = []
        await graph.aclose()

    asyncio.run(main(*sys.argv[1:]))
    """
)


class Child:
    """Another `manda` process searching the same home."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, db_path: Path, deal_id: str) -> Child:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CHILD, str(db_path), deal_id,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )
        child = cls(process)
        assert (await child._answer())["ready"]
        return child

    async def _answer(self) -> dict[str, object]:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), 120)
        assert line, "the child process exited"
        return json.loads(line)

    async def search(self, question: str) -> tuple[set[str], str]:
        assert self.process.stdin is not None
        self.process.stdin.write(question.encode() + b"\n")
        await self.process.stdin.drain()
        answer = await self._answer()
        return set(answer["ids"]), "\n".join(answer["log"])  # type: ignore[arg-type]

    async def close(self) -> None:
        if self.process.returncode is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            await asyncio.wait_for(self.process.wait(), 60)

    async def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "home" / "manda.db"


def snapshots(db_path: Path, deal_id: str) -> list[Path]:
    folders = list((db_path.parent / "keyword-index").glob(f"*/{deal_stem(deal_id)}"))
    return sorted(p for folder in folders for p in folder.glob("g*"))


async def search_once(db_path: Path, deal_id: str, question: str) -> set[str]:
    """What a fresh process finds (a new store: nothing of this one's memory is reused)."""
    graph = EmbeddedKnowledgeGraph(db_path)
    await graph.start()
    try:
        return {h.id for h in await graph.fulltext_search(deal_id, question, 10)}
    finally:
        await graph.aclose()


async def test_another_process_opens_the_saved_index_and_sees_later_writes_and_deletes(
    db_path: Path, make: ModelFactory, deal_id: str
) -> None:
    document = make.document(deal_id)
    a, b = make.chunks(document, ["zebra in the ledger", "zebra in the annex"])
    store = EmbeddedKnowledgeGraph(db_path)
    await store.start()
    child: Child | None = None
    try:
        await store.add_chunks(deal_id, [a, b])
        assert {h.id for h in await store.fulltext_search(deal_id, "zebra", 5)} == {a.id, b.id}
        assert len(snapshots(db_path, deal_id)) == 1  # built, then published

        child = await Child.start(db_path, deal_id)
        found, logged = await child.search("zebra")
        assert found == {a.id, b.id}
        assert "opened" in logged and "indexed" not in logged  # loaded, not built again

        c = make.chunk(document, "zebra in the appendix", ordinal=7)
        await store.add_chunks(deal_id, [c])  # another process ingests
        with sqlite3.connect(db_path) as other:  # and removes a chunk
            other.execute("DELETE FROM chunks WHERE deal_id = ? AND id = ?", (deal_id, a.id))
        found, logged = await child.search("zebra")
        assert found == {b.id, c.id}
        assert "indexed" not in logged  # caught up, not rebuilt
        assert (await child.search("ledger"))[0] == set()
    finally:
        if child is not None:
            await child.close()
        await store.aclose()
    work = [p for p in (db_path.parent / "keyword-index").rglob(".work-*")]
    assert work == [], "each process removes its working copy when it closes"


async def test_processes_opening_a_deal_at_once_build_its_index_once(
    db_path: Path, make: ModelFactory, deal_id: str
) -> None:
    document = make.document(deal_id)
    chunks = make.chunks(document, [f"zebra passage number {i}" for i in range(300)])
    store = EmbeddedKnowledgeGraph(db_path)
    await store.start()
    await store.add_chunks(deal_id, chunks)
    await store.aclose()
    children = [await Child.start(db_path, deal_id) for _ in range(2)]
    try:
        results = await asyncio.gather(*(child.search("zebra") for child in children))
    finally:
        for child in children:
            await child.close()
    assert all(len(found) == 10 for found, _ in results)
    logs = [logged for _, logged in results]
    assert sum("indexed" in logged for logged in logs) == 1, logs
    assert sum("opened" in logged for logged in logs) == 1, logs


def _damage_meta(snapshot: Path) -> None:
    (snapshot / "meta.json").write_text("{not json")


def _truncate_segments(snapshot: Path) -> None:
    for segment in snapshot.glob("*.term"):
        segment.unlink()
        segment.write_bytes(b"\0" * 7)


def _foreign_store(snapshot: Path) -> None:
    stamp = json.loads((snapshot / STAMP).read_text())
    (snapshot / STAMP).write_text(json.dumps({**stamp, "store_id": "another-database"}))


def _no_stamp(snapshot: Path) -> None:
    (snapshot / STAMP).unlink()


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        (_damage_meta, "Meta file cannot be deserialized"),
        (_truncate_segments, ""),
        (_foreign_store, "belongs to store another-database"),
        (_no_stamp, "it has no stamp"),
    ],
)
async def test_a_damaged_or_foreign_saved_index_is_dropped_and_rebuilt(
    db_path: Path, make: ModelFactory, deal_id: str, caplog: pytest.LogCaptureFixture,
    damage: object, why: str,
) -> None:
    [chunk] = make.chunks(make.document(deal_id), ["zebra in the ledger"])
    store = EmbeddedKnowledgeGraph(db_path)
    await store.start()
    await store.add_chunks(deal_id, [chunk])
    await store.fulltext_search(deal_id, "zebra", 5)
    await store.aclose()
    [snapshot] = snapshots(db_path, deal_id)
    damage(snapshot)  # type: ignore[operator]

    with caplog.at_level(logging.INFO, logger="manda.kg.embedded"):
        assert await search_once(db_path, deal_id, "zebra") == {chunk.id}
    assert "Dropping the saved keyword index" in caplog.text and why in caplog.text
    assert "chunks indexed" in caplog.text  # built again from SQLite
    [rebuilt] = snapshots(db_path, deal_id)  # and published again under the same generation
    assert (rebuilt / STAMP).exists()
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="manda.kg.embedded"):
        assert await search_once(db_path, deal_id, "zebra") == {chunk.id}
    assert "Dropping" not in caplog.text and "opened" in caplog.text


async def test_a_saved_index_ahead_of_the_store_is_dropped(
    db_path: Path, make: ModelFactory, deal_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    [chunk] = make.chunks(make.document(deal_id), ["zebra in the ledger"])
    store = EmbeddedKnowledgeGraph(db_path)
    await store.start()
    await store.add_chunks(deal_id, [chunk])
    await store.fulltext_search(deal_id, "zebra", 5)
    await store.aclose()
    [snapshot] = snapshots(db_path, deal_id)
    stamp = json.loads((snapshot / STAMP).read_text())
    ahead = snapshot.with_name(f"g{stamp['generation'] + 50}")
    snapshot.rename(ahead)
    (ahead / STAMP).write_text(json.dumps({**stamp, "generation": stamp["generation"] + 50}))

    with caplog.at_level(logging.INFO, logger="manda.kg.embedded"):
        assert await search_once(db_path, deal_id, "zebra") == {chunk.id}
    assert "chunks indexed" in caplog.text and "is ahead of the store's" in caplog.text
    assert [p.name for p in snapshots(db_path, deal_id)] == [snapshot.name]


async def test_a_saved_index_of_a_database_restored_from_a_copy_is_not_trusted(
    db_path: Path, make: ModelFactory, deal_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Restored from a backup, then written again up to the same generation (same rowids, other
    text): the snapshot of the lost history matches by count, but not by its last changes."""
    store = EmbeddedKnowledgeGraph(db_path)
    await store.start()
    [base] = make.chunks(make.document(deal_id), ["the base ledger"])
    await store.add_chunks(deal_id, [base])
    await store.aclose()
    backup = db_path.with_name("backup.db")
    with closing(sqlite3.connect(db_path)) as live, closing(sqlite3.connect(backup)) as copy:
        live.backup(copy)

    lost = make.chunks(make.document(deal_id), ["zebra one", "zebra two"])
    store = EmbeddedKnowledgeGraph(db_path)
    await store.start()
    await store.add_chunks(deal_id, lost)
    assert len(await store.fulltext_search(deal_id, "zebra", 5)) == 2  # published
    await store.aclose()

    for suffix in ("-wal", "-shm"):
        db_path.with_name(db_path.name + suffix).unlink(missing_ok=True)
    shutil.copy(backup, db_path)
    kept = make.chunks(make.document(deal_id), ["walrus one", "walrus two"])
    store = EmbeddedKnowledgeGraph(db_path)
    await store.start()
    await store.add_chunks(deal_id, kept)  # same generation and rowids as the lost history
    await store.aclose()

    with caplog.at_level(logging.INFO, logger="manda.kg.embedded"):
        assert await search_once(db_path, deal_id, "walrus") == {c.id for c in kept}
    assert "another copy of the database" in caplog.text
    assert await search_once(db_path, deal_id, "zebra") == set()


async def test_a_process_killed_mid_ingest_leaves_nothing_searchable_or_behind(
    db_path: Path, make: ModelFactory, deal_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process indexes (and publishes) the chunks of a document it has not finished, then dies:
    another process opens that snapshot but never returns them, and removes the dead one's copy."""
    done = make.document(deal_id)
    unfinished = make.document(deal_id, status=DocumentStatus.RUNNING)
    [finished] = make.chunks(done, ["zebra in the finished report"])
    half = make.chunks(unfinished, ["zebra in the half read report", "more of it"])
    store = EmbeddedKnowledgeGraph(db_path)
    await store.start()
    await store.upsert_document(done)
    await store.upsert_document(unfinished)
    await store.add_chunks(deal_id, [finished, *half])
    await store.aclose()

    child = await Child.start(db_path, deal_id)
    found, logged = await child.search("zebra")  # builds and publishes, the half document in it
    assert found == {finished.id} and "indexed" in logged
    await child.kill()
    assert list((db_path.parent / "keyword-index").rglob(".work-*")), "left by the dead process"

    monkeypatch.setattr(keyword_files, "STALE_SECONDS", 0.0)
    assert await search_once(db_path, deal_id, "zebra") == {finished.id}
    assert not list((db_path.parent / "keyword-index").rglob(".work-*"))
    store = EmbeddedKnowledgeGraph(db_path)
    await store.start()
    try:
        await store.set_document_status(deal_id, unfinished.id, DocumentStatus.COMPLETED)
        assert {h.id for h in await store.fulltext_search(deal_id, "zebra", 5)} == {
            finished.id, half[0].id
        }
    finally:
        await store.aclose()


async def test_a_store_without_a_keyword_folder_keeps_its_index_in_memory(
    db_path: Path, make: ModelFactory, deal_id: str
) -> None:
    store = EmbeddedKnowledgeGraph(db_path, keyword_on_disk=False)
    await store.start()
    try:
        [chunk] = make.chunks(make.document(deal_id), ["zebra in the ledger"])
        await store.add_chunks(deal_id, [chunk])
        assert [h.id for h in await store.fulltext_search(deal_id, "zebra", 5)] == [chunk.id]
    finally:
        await store.aclose()
    assert not (db_path.parent / "keyword-index").exists()
    assert os.listdir(db_path.parent)  # the database itself


async def test_the_deals_linked_to_channels_are_warmed_before_their_first_question(
    tmp_path: Path, make: ModelFactory, deal_id: str, other_deal_id: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """What `manda serve` runs in the background at start: the linked deals' indexes are opened
    (built and saved here), a deal no channel is linked to is left alone."""
    from manda.app import Manda
    from manda.config import Settings

    async with Manda(Settings(MANDA_HOME=tmp_path / "home"), workflows=False) as app:
        for deal in (deal_id, other_deal_id):
            await app.graph.upsert_deal(make.deal(deal))
            await app.graph.add_chunks(deal, make.chunks(make.document(deal), ["zebra ledger"]))
        await app.graph.bind_channel("slack:T1:C1", deal_id)
        with caplog.at_level(logging.INFO, logger="manda.kg.embedded"):
            await app.warm_linked_deals()
    assert f"search of deal {deal_id} ready: 1 chunks" in caplog.text
    assert other_deal_id not in caplog.text
    db_path = tmp_path / "home" / "manda.db"
    assert snapshots(db_path, deal_id) and not snapshots(db_path, other_deal_id)
