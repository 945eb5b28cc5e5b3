"""Reading a data-room file in a worker process bounded in time and memory, off the event loop.

A file is untrusted input: its parser, chunker and rule-based extractor — and the opening of an
archive or an e-mail into its members and attachments — run in a reader process forked from a
clean fork server (no event loop, no open stores, no threads), one task at a time, each under an
address-space limit (`RLIMIT_AS`: the file's memory allowance on top of what the reader already
maps) and a wall-time limit (past it the reader is killed and replaced). Whatever happens there,
the caller gets the result or an `UnreadableFileError` naming the limit that was hit, and the
bot keeps answering meanwhile.

A few readers serve the whole process (`ParseLimits.max_readers`), so one deal's upload never
holds another's; and a whole upload has a reading budget (`ReadingBudget`,
`MANDA_MAX_UPLOAD_SECONDS`): each task costs the larger of its wall time and the CPU time its
reader (and the programs it ran, such as OCR) spent, a task may take no longer than what is
left, and once it is spent the rest of the upload is refused by name.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import resource
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Literal, Protocol

from manda.companies import company_of
from manda.errors import UnreadableFileError
from manda.finance.fiscal import learn_fiscal_year_end
from manda.ingest.chunking import chunk_document
from manda.ingest.corrections import find_correction_statements
from manda.ingest.expand import ExpansionBudget, RoomFile, expand_in_reader
from manda.ingest.extract.profile import DocumentProfile, classify_document
from manda.ingest.parsers import ParseLimits, parse_file
from manda.ingest.parsers.base import LIMIT_SETTINGS, out_of_memory, over_limit, unreadable
from manda.models import Chunk, Document, Finding, ParsedDocument, SkippedFile

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
            "company": company_of(parsed) or "",
            "corrections": find_correction_statements(parsed),
            "headings_read": True,
        }
    )
    chunks = chunk_document(parsed, deal_id=document.deal_id, document_id=document.id,
                            role=document.role)
    candidates = extractor.extract(document, parsed, chunks) if extractor is not None else None
    return FileReading(parsed, document, chunks, candidates, profile)


def parse_only(path: Path, name: str, limits: ParseLimits) -> ParsedDocument:
    """Only the file's sections (a Q&A log read for its rows, not as a document of the room)."""
    return parse_file(path, limits=limits, filename=name)


def can_run_sandboxed(extractor: object) -> bool:
    return bool(getattr(extractor, "sandboxed", False))


@dataclass
class ReadingBudget:
    """The reading time one upload may spend, in seconds: every task (a file read, an archive
    or e-mail opened) costs the larger of its wall time and the CPU time it used."""

    seconds: float
    spent: float = 0.0

    @property
    def left(self) -> float:
        return self.seconds - self.spent

    def spend(self, seconds: float) -> None:
        self.spent += max(0.0, seconds)

    def refusal(self, name: str) -> UnreadableFileError:
        return over_limit(
            name,
            f"was not read: the upload had used up its {self.seconds:g} seconds of reading",
            f"{self.seconds:g}-second upload",
            LIMIT_SETTINGS["max_upload_seconds"],
        )


class Sandbox:
    """Reads files in worker processes (or, with isolation "thread", in a thread, unbounded)."""

    def __init__(self, limits: ParseLimits, isolation: Isolation = "process") -> None:
        self._limits = limits
        self._isolation = isolation

    @property
    def limits(self) -> ParseLimits:
        return self._limits

    async def read(
        self, path: Path, name: str, document: Document, extractor: object,
        budget: ReadingBudget | None = None,
    ) -> FileReading:
        inside = extractor if can_run_sandboxed(extractor) else None
        reading: FileReading = await self._run(
            read_file, (path, name, document, self._limits, inside), name, budget
        )
        return reading

    async def parse(self, path: Path, name: str) -> ParsedDocument:
        """The file's sections only, read within the same bounds."""
        parsed: ParsedDocument = await self._run(parse_only, (path, name, self._limits), name, None)
        return parsed

    async def expand(
        self, file: RoomFile, workdir: Path, state: ExpansionBudget,
        budget: ReadingBudget | None = None,
    ) -> tuple[list[RoomFile], list[SkippedFile], ExpansionBudget]:
        """Open one archive or e-mail into `workdir` in a reader (`expand_in_reader`)."""
        opened: tuple[list[RoomFile], list[SkippedFile], ExpansionBudget] = await self._run(
            expand_in_reader, (file, workdir, self._limits, state), file.name, budget
        )
        return opened

    async def _run(
        self, task: Callable[..., Any], args: tuple[Any, ...], name: str,
        budget: ReadingBudget | None,
    ) -> Any:
        if budget is not None and budget.left <= 0:
            raise budget.refusal(name)
        if self._isolation == "thread":
            started = time.perf_counter()
            try:
                return await asyncio.to_thread(task, *args)
            finally:
                if budget is not None:
                    budget.spend(time.perf_counter() - started)
        return await asyncio.to_thread(self._in_process, task, args, name, budget)

    def _in_process(
        self, task: Callable[..., Any], args: tuple[Any, ...], name: str,
        budget: ReadingBudget | None,
    ) -> Any:
        timeout = self._limits.max_seconds
        if budget is not None:
            timeout = min(timeout, budget.left)
        try:
            status, value, cost = _READERS.run((task, args, self._limits), name, self._limits,
                                               timeout)
        except _TimedOut:
            if budget is not None:
                budget.spend(timeout)
                if timeout < self._limits.max_seconds:
                    raise budget.refusal(name) from None
            raise over_limit(
                name,
                f"took longer than {self._limits.max_seconds:g} seconds to read",
                f"{self._limits.max_seconds:g}-second",
                LIMIT_SETTINGS["max_seconds"],
            ) from None
        if budget is not None:
            budget.spend(cost)
        if status == "ok":
            return value
        if status == "unreadable":
            raise unreadable(name, value)
        raise RuntimeError(value)


class _TimedOut(Exception):
    """A reader outlasted its time; it was killed."""


class _Readers:
    """A few reader processes for this whole process (`ParseLimits.max_readers`), each reused
    from task to task (starting one costs more than most files): a task takes an idle one, and
    waits only when all are busy, so one upload never holds every other."""

    def __init__(self) -> None:
        self._idle: list[_Reader] = []
        self._count = 0
        self._free = threading.Condition()

    def run(
        self, task: tuple[Any, ...], name: str, limits: ParseLimits, timeout: float
    ) -> tuple[str, Any, float]:
        reader = self._take(max(1, limits.max_readers))
        try:
            return reader.run(task, name, limits, timeout)
        finally:
            with self._free:
                self._idle.append(reader)
                self._free.notify()

    def _take(self, size: int) -> _Reader:
        with self._free:
            while not self._idle and self._count >= size:
                self._free.wait()
            if self._idle:
                return self._idle.pop()
            self._count += 1
            return _Reader()


class _Reader:
    """One reader process, replaced when a task kills it, outlasts its time limit, or leaves it
    large."""

    RECYCLE_AFTER_FILES = 200
    RECYCLE_ABOVE_MB = 1024

    def __init__(self) -> None:
        self._process: Any = None
        self._conn: Connection | None = None
        self._files = 0

    def run(
        self, task: tuple[Any, ...], name: str, limits: ParseLimits, timeout: float
    ) -> tuple[str, Any, float]:
        """(status, value, cost in seconds: the larger of wall and CPU time)."""
        conn = self._ensure()
        started = time.perf_counter()
        conn.send(task)
        if not conn.poll(max(0.0, timeout)):
            self._stop()
            raise _TimedOut
        try:
            status, value, peak_mb, cpu = conn.recv()
        except (EOFError, OSError):
            exitcode = self._stop()
            raise _died(name, exitcode, limits) from None
        self._files += 1
        spent = status != "ok" and "memory" in str(value)
        if spent or peak_mb > self.RECYCLE_ABOVE_MB or self._files >= self.RECYCLE_AFTER_FILES:
            self._stop()
        return status, value, max(time.perf_counter() - started, cpu)

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


_READERS = _Readers()


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
    """The reader process: one task at a time, each under its own memory allowance."""
    base, hard = resource.getrlimit(resource.RLIMIT_AS)
    while True:
        try:
            task, args, limits = conn.recv()
        except (EOFError, OSError):
            return
        peak_before = _vm_peak()
        cpu_before = _cpu_seconds()
        cap = _limit_memory(limits.max_memory_mb, hard)
        result: tuple[str, Any]
        try:
            result = ("ok", task(*args))
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
        cpu = _cpu_seconds() - cpu_before
        try:
            conn.send((*result, peak_mb, cpu))
        except MemoryError:
            conn.send(("unreadable", _out_of_memory(limits), peak_mb, cpu))


def _cpu_seconds() -> float:
    """CPU time of the reader and of the programs it ran and waited for (Tesseract)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


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


_out_of_memory = out_of_memory
