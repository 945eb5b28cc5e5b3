"""Reading a data-room file in a worker process bounded in time and memory, off the event loop.

A file is untrusted input: its parser, chunker and rule-based extractor run in a reader process
forked from a clean fork server (no event loop, no open stores, no threads), one file at a time,
each under an address-space limit (`RLIMIT_AS`: the file's memory allowance on top of what the
reader already maps) and a wall-time limit (past it the reader is killed and replaced).
Whatever happens there, the caller gets the reading or an `UnreadableFileError` naming the limit
that was hit, and the bot keeps answering meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import resource
import signal
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Literal, Protocol

from manda.errors import UnreadableFileError
from manda.finance.fiscal import learn_fiscal_year_end
from manda.ingest.chunking import chunk_document
from manda.ingest.corrections import find_correction_statements
from manda.ingest.extract.profile import DocumentProfile, classify_document
from manda.ingest.parsers import ParseLimits, parse_file
from manda.ingest.parsers.base import LIMIT_SETTINGS, over_limit, unreadable
from manda.models import Chunk, Document, Finding, ParsedDocument

log = logging.getLogger(__name__)

Isolation = Literal["process", "thread"]
PAGE = 4096
NEAR_CAP = 64 * 2**20  # an allocation refused this close to the cap was refused by the cap


class SandboxedExtractor(Protocol):
    """An extractor that is a pure function of its input (rules, no network): it runs in the
    worker with the parser. Extractors that call a service (Claude) run in the caller."""

    id: str
    sandboxed: bool

    def extract(
        self, document: Document, parsed: ParsedDocument, chunks: Sequence[Chunk]
    ) -> list[Finding]: ...


@dataclass
class FileReading:
    """What reading one file yields: its sections, the document with its profile, its chunks,
    and candidate findings when the extractor ran with the parser (else None)."""

    parsed: ParsedDocument
    document: Document
    chunks: list[Chunk]
    candidates: list[Finding] | None
    profile: DocumentProfile


def read_file(
    path: Path,
    name: str,
    document: Document,
    limits: ParseLimits,
    extractor: SandboxedExtractor | None,
) -> FileReading:
    """Parse → profile → chunk (→ extract): everything about a file that needs no store."""
    parsed = parse_file(path, limits=limits, filename=name)
    profile = classify_document(document.filename, parsed)
    stated = learn_fiscal_year_end(s.text for s in parsed.sections)
    document = document.model_copy(
        update={
            # the year end the document states, else the one the deal learned from the room
            "fiscal_year_end": stated.iso() if stated else document.fiscal_year_end,
            "doc_date": parsed.doc_date,
            "units": parsed.units,
            "is_irl": profile.is_irl,
            "role": profile.role,
            "authoritative": profile.authoritative,
            "draft": document.draft or profile.draft,
            "metadata": parsed.metadata,
            "corrections": find_correction_statements(parsed),
        }
    )
    chunks = chunk_document(parsed, deal_id=document.deal_id, document_id=document.id,
                            role=document.role)
    candidates = extractor.extract(document, parsed, chunks) if extractor is not None else None
    return FileReading(parsed, document, chunks, candidates, profile)


def parse_only(
    path: Path, name: str, document: Document | None, limits: ParseLimits, extractor: None
) -> ParsedDocument:
    """Only the file's sections (a Q&A log read for its rows, not as a document of the room)."""
    del document, extractor
    return parse_file(path, limits=limits, filename=name)


def can_run_sandboxed(extractor: object) -> bool:
    return bool(getattr(extractor, "sandboxed", False))


class Sandbox:
    """Reads files in worker processes (or, with isolation "thread", in a thread, unbounded)."""

    def __init__(self, limits: ParseLimits, isolation: Isolation = "process") -> None:
        self._limits = limits
        self._isolation = isolation

    @property
    def limits(self) -> ParseLimits:
        return self._limits

    async def read(
        self, path: Path, name: str, document: Document, extractor: object
    ) -> FileReading:
        inside = extractor if can_run_sandboxed(extractor) else None
        if self._isolation == "thread":
            return await asyncio.to_thread(
                read_file, path, name, document, self._limits, inside  # type: ignore[arg-type]
            )
        return await asyncio.to_thread(self._in_process, read_file, path, name, document, inside)

    async def parse(self, path: Path, name: str) -> ParsedDocument:
        """The file's sections only, read within the same bounds."""
        if self._isolation == "thread":
            return await asyncio.to_thread(parse_only, path, name, None, self._limits, None)
        return await asyncio.to_thread(self._in_process, parse_only, path, name, None, None)

    def _in_process(
        self, task: Any, path: Path, name: str, document: Document | None, extractor: object
    ) -> Any:
        status, value = _WORKER.run((task, path, name, document, self._limits, extractor), name,
                                    self._limits)
        if status == "ok":
            return value  # type: ignore[no-any-return]
        if status == "unreadable":
            raise unreadable(name, value)
        raise RuntimeError(value)


class _Worker:
    """One reader process at a time for this whole process, reused from file to file (starting
    one costs more than most files), replaced when a file kills it, outlasts its time limit, or
    leaves it large."""

    RECYCLE_AFTER_FILES = 200
    RECYCLE_ABOVE_MB = 1024

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: Any = None
        self._conn: Connection | None = None
        self._files = 0

    def run(self, task: tuple[Any, ...], name: str, limits: ParseLimits) -> tuple[str, Any]:
        with self._lock:
            conn = self._ensure()
            conn.send(task)
            if not conn.poll(limits.max_seconds):
                self._stop()
                raise over_limit(
                    name,
                    f"took longer than {limits.max_seconds:g} seconds to read",
                    f"{limits.max_seconds:g}-second",
                    LIMIT_SETTINGS["max_seconds"],
                )
            try:
                status, value, peak_mb = conn.recv()
            except (EOFError, OSError):
                exitcode = self._stop()
                raise _died(name, exitcode, limits) from None
            self._files += 1
            spent = status != "ok" and "memory" in str(value)
            if spent or peak_mb > self.RECYCLE_ABOVE_MB or self._files >= self.RECYCLE_AFTER_FILES:
                self._stop()
            return status, value

    def _ensure(self) -> Connection:
        if self._process is not None and self._process.is_alive() and self._conn is not None:
            return self._conn
        self._stop()
        ctx = _context()
        parent, child = ctx.Pipe(duplex=True)
        process = ctx.Process(target=_serve, args=(child,), name="manda-reader", daemon=True)
        try:
            process.start()  # kept only once started: a failed start leaves nothing to join
        except BaseException:
            parent.close()
            raise
        finally:
            child.close()
        self._process, self._conn, self._files = process, parent, 0
        return parent

    def _stop(self) -> int | None:
        process, conn = self._process, self._conn
        self._process, self._conn = None, None
        if conn is not None:
            conn.close()
        if process is None:
            return None
        if process.is_alive():
            process.kill()
        process.join()
        return process.exitcode  # type: ignore[no-any-return]


_WORKER = _Worker()


def _died(name: str, exitcode: int | None, limits: ParseLimits) -> UnreadableFileError:
    if exitcode == -signal.SIGKILL:  # the kernel's OOM killer, or someone's kill -9
        return over_limit(
            name,
            "needed more memory than the machine could give while it was read",
            f"{limits.max_memory_mb:,} MB memory",
            LIMIT_SETTINGS["max_memory_mb"],
        )
    return unreadable(
        name,
        f"made the file reader crash (exit {exitcode}); it may be damaged — ask for a fresh copy",
    )


_CTX: Any = None


def _context() -> Any:
    """A fork server started once, with the readers imported: each file forks from it fast."""
    global _CTX
    if _CTX is None:
        ctx = multiprocessing.get_context("forkserver")
        # children fork with the readers and the rule-based extractor already imported
        ctx.set_forkserver_preload(["__main__", __name__, "manda.ingest.extract.offline"])
        _CTX = ctx
    return _CTX


def _current_address_space() -> int:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * PAGE
    except (OSError, ValueError, IndexError):
        return 0


def _serve(conn: Connection) -> None:
    """The reader process: one file at a time, each under its own memory allowance."""
    base, hard = resource.getrlimit(resource.RLIMIT_AS)
    while True:
        try:
            task, path, name, document, limits, extractor = conn.recv()
        except (EOFError, OSError):
            return
        peak_before = _vm_peak()
        cap = _limit_memory(limits.max_memory_mb, hard)
        result: tuple[str, Any]
        try:
            result = ("ok", task(path, name, document, limits, extractor))
        except UnreadableFileError as exc:
            result = ("unreadable", exc.reason)
        except MemoryError:
            result = ("unreadable", _out_of_memory(limits))
        except BaseException as exc:  # reported by the caller like any parser bug
            result = ("error", f"{type(exc).__name__}: {exc}")
        finally:
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_AS, (base, hard))
        # C libraries (lxml…) report a refused allocation in their own words ("unknown error"):
        # a failure while this file pushed the address space to its cap is the memory limit
        peak = _vm_peak()
        if result[0] != "ok" and peak > peak_before and peak >= cap - NEAR_CAP:
            result = ("unreadable", _out_of_memory(limits))
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        try:
            conn.send((*result, peak_mb))
        except MemoryError:
            conn.send(("unreadable", _out_of_memory(limits), peak_mb))


def _limit_memory(megabytes: int, hard: int) -> int:
    """Cap the address space at what the reader already maps plus the file's allowance."""
    limit = _current_address_space() + megabytes * 2**20
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    return limit


def _vm_peak() -> int:
    """The most address space this process ever mapped (Linux `VmPeak`), in bytes."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmPeak:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _out_of_memory(limits: ParseLimits) -> str:
    return (
        f"needed more than {limits.max_memory_mb:,} MB of memory to read, over the limit; "
        f"split it, or raise {LIMIT_SETTINGS['max_memory_mb']} if it is genuine"
    )
