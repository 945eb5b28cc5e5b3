"""Progress and summary of files dropped in a deal channel, shown in one message that is updated."""

from __future__ import annotations

from collections.abc import Sequence

from bot import ids
from bot.blocks.kit import (
    Block,
    SlackMessage,
    actions,
    button,
    context,
    cut,
    fallback,
    plural,
    section,
)
from bot.blocks.mrkdwn import escape, plain
from bot.blocks.review import carried_blocks
from bot.payloads import OpenReview, StaleButtonError
from manda.deals import DocumentChanges
from manda.jobs import IngestJob, JobStatus
from manda.models import IngestReport, SkippedFile

MAX_LISTED = 20
MAX_DOCUMENTS = 10  # described one by one; the rest are named in the head line
MAX_CHANGES = 8
MAX_CARRIED = 8  # carried-over decisions listed with Undo (the audit log has every one)


def render_progress(deal_id: str, done: int, total: int, current: str) -> SlackMessage:
    if done >= total:
        text = f"⏳ Read {plural(total, 'file')} for *{escape(deal_id)}*; linking findings…"
    else:
        name = escape(plain(current, 200))
        text = f"⏳ Ingesting into *{escape(deal_id)}*: {done + 1}/{total} — `{name}`"
    return SlackMessage(text=fallback(text), blocks=[section(text)])


def render_downloading(deal_id: str, names: Sequence[str]) -> SlackMessage:
    listed = ", ".join(f"`{escape(plain(n, 100))}`" for n in names[:MAX_LISTED])
    text = f"⏳ Downloading {plural(len(names), 'file')} for *{escape(deal_id)}*: {listed}"
    return SlackMessage(text=fallback(text), blocks=[section(cut(text))])


def _skipped_lines(skipped: Sequence[SkippedFile]) -> str:
    lines = [
        f"• `{escape(plain(s.filename, 150))}`: {escape(plain(s.reason, 300))}"
        for s in skipped[:MAX_LISTED]
    ]
    if len(skipped) > MAX_LISTED:
        lines.append(f"… and {len(skipped) - MAX_LISTED} more")
    return "\n".join(lines)


STATUS_WORD = {"approved": "✓", "pending": "waits for review", "rejected": "rejected"}


def document_lines(doc: DocumentChanges) -> str:
    """One document: its role, main figures with units, what it corrected or contradicts."""
    role = ("draft " if doc.draft else "") + doc.role
    lines = [f"📄 *{escape(plain(doc.filename, 150))}* — {escape(role)}"]
    if doc.figures:
        shown = []
        for f in doc.figures:
            period = f" {escape(f.period)}" if f.period else ""
            mark = " _(waits for review)_" if f.status.value == "pending" else ""
            shown.append(f"{escape(f.label)}{period}: *{escape(f.shown)}*{mark}")
        lines.append("• " + " · ".join(shown))
    for c in doc.changes[:MAX_CHANGES]:
        period = f" {escape(c.period)}" if c.period else ""
        if c.kind == "conflicts with":
            lines.append(
                f"⚠️ Conflict: {escape(c.label)}{period} is *{escape(c.here)}* here, "
                f"*{escape(c.there)}* in {escape(c.other_source)}"
            )
        elif c.kind == "corrects":
            lines.append(
                f"✏️ Corrects {escape(c.label)}{period}: {escape(c.there)} → *{escape(c.here)}* "
                f"(was in {escape(c.other_source)})"
            )
        else:
            lines.append(
                f"✏️ Corrected later: {escape(c.label)}{period} {escape(c.here)} → "
                f"*{escape(c.there)}* in {escape(c.other_source)}"
            )
    if len(doc.changes) > MAX_CHANGES:
        lines.append(f"… and {len(doc.changes) - MAX_CHANGES} more corrections and conflicts")
    verb = "waits" if doc.pending == 1 else "wait"
    waits = f"{plural(doc.pending, 'finding')} {verb} for review"
    if not doc.pending:
        waits = "nothing to review"
    lines.append(f"_{doc.approved} approved automatically · {waits}_")
    return "\n".join(lines)


def render_summary(report: IngestReport, changes: Sequence[DocumentChanges] = ()) -> SlackMessage:
    """What the ingestion did — per document its role, figures, corrections and conflicts —,
    the decisions it carried to new versions (each with Undo), each skipped file with its
    reason, and a Review button if needed."""
    deal = escape(report.deal_id)
    done = len(report.ingested)
    head = f"✅ *{deal}*: {done} document{'s' if done != 1 else ''} ingested"
    if report.unchanged:
        head += f", {len(report.unchanged)} unchanged"
    if report.skipped:
        head += f", {len(report.skipped)} skipped"
    lines = [head]
    if report.ingested:
        lines.append(
            "Ingested: "
            + ", ".join(f"`{escape(plain(n, 100))}`" for n in report.ingested[:MAX_LISTED])
        )
    lines.append(
        f"{report.findings} new finding{'s' if report.findings != 1 else ''}: "
        f"{report.auto_approved} approved automatically, {report.pending_review} "
        f"need{'s' if report.pending_review == 1 else ''} review"
        + (f"; {report.superseded} superseded by a corrected version" if report.superseded else "")
        + (f"; {report.contradictions} conflict{'s' if report.contradictions != 1 else ''} in "
           "the deal" if report.contradictions else "")
        + "."
    )
    blocks: list[Block] = [{**section(cut("\n".join(lines))), "block_id": ids.INGEST_SUMMARY}]
    for doc in changes[:MAX_DOCUMENTS]:
        blocks.append(section(cut(document_lines(doc))))
    blocks.extend(carried_blocks(report.deal_id, report.carried, MAX_CARRIED))
    if report.skipped:
        blocks.append(section(f"⚠️ *Not ingested:*\n{_skipped_lines(report.skipped)}"))
        blocks.append(
            context(["Fix or replace these files and drop them here again; the rest is in."])
        )
    if report.pending_review:
        blocks.append(review_actions(report.deal_id, report.pending_review))
    return SlackMessage(text=fallback(head), blocks=blocks)


def review_actions(deal_id: str, waiting: int) -> Block:
    return actions(ids.INGEST_ACTIONS, [button(
        f"Review {plural(waiting, 'finding')}", ids.OPEN_REVIEW,
        OpenReview(d=deal_id, n=waiting).encode(), style="primary")])


def recount_review(blocks: Sequence[Block], deal_id: str, change: int) -> list[Block]:
    """An ingestion summary's "Review N findings" after one of its findings was decided
    (`change` -1) or its decision undone (+1): counted on from the button's own count, shown
    while anything waits; any other message is returned as it is."""
    if not any(b.get("block_id") == ids.INGEST_SUMMARY for b in blocks):
        return list(blocks)
    at = next((i for i, b in enumerate(blocks) if b.get("block_id") == ids.INGEST_ACTIONS), None)
    waiting = 0
    if at is not None:
        values = [e.get("value") for e in blocks[at].get("elements", [])
                  if e.get("action_id") == ids.OPEN_REVIEW]
        try:
            kept = OpenReview.decode(values[0] if values else None).waiting
        except StaleButtonError:
            kept = None
        if kept is None:
            return list(blocks)  # a button of an older summary, which kept no count
        waiting = kept
    now = max(0, waiting + change)
    rest = [b for i, b in enumerate(blocks) if i != at]
    if not now:
        return rest
    where = at if at is not None else len(rest)
    return [*rest[:where], review_actions(deal_id, now), *rest[where:]]


def render_ingest_failure(deal_id: str, reason: str) -> SlackMessage:
    text = (
        f"❌ The files could not be ingested into *{escape(deal_id)}*: {escape(reason)}\n"
        "Nothing was changed. Try again; if it keeps failing, run `manda doctor` on the server."
    )
    return SlackMessage(text=fallback(text), blocks=[section(cut(text))])


def render_interrupted(deal_id: str, files: list[str]) -> SlackMessage:
    """An upload whose ingestion a crash or restart cut short, told after the restart."""
    listed = ", ".join(f"`{escape(plain(n, 100))}`" for n in files[:MAX_LISTED])
    more = f" and {len(files) - MAX_LISTED} more" if len(files) > MAX_LISTED else ""
    text = (
        f"❌ Manda stopped while ingesting {listed}{more} into *{escape(deal_id)}* "
        "(a crash or restart), so they were not ingested and nothing half-read will be cited. "
        "Drop the files again to ingest them."
    )
    return SlackMessage(text=fallback(text), blocks=[section(cut(text))])


def _files(job: IngestJob) -> str:
    return plural(len(job.paths), "file")


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return plural(round(seconds / 3600), "hour")
    if seconds >= 60:
        return plural(round(seconds / 60), "minute")
    return plural(max(1, round(seconds)), "second")


def render_job(job: IngestJob) -> SlackMessage:
    """Where the job of dropped files stands while a worker has yet to finish it."""
    deal, ref = escape(job.deal_id), f"`{escape(job.id)}`"
    if job.status is JobStatus.RUNNING:
        text = f"⏳ Ingesting {_files(job)} into *{deal}* (job {ref})…"
    elif job.error:
        text = (
            f"⏳ Job {ref} ({_files(job)} for *{deal}*) is waiting to be retried: "
            f"{escape(plain(job.error, 300))}"
        )
    else:
        text = f"⏳ Queued {_files(job)} for *{deal}* as job {ref}, waiting for a worker…"
    return SlackMessage(text=fallback(text), blocks=[section(cut(text))])


def render_job_unclaimed(job: IngestJob, waited: float) -> SlackMessage:
    """No worker took the job in time: say so, and that it is kept."""
    deal = escape(job.deal_id)
    text = (
        f"⚠️ No worker has taken job `{escape(job.id)}` ({_files(job)} for *{deal}*) in "
        f"{_duration(waited)}. It stays queued, not lost: it is ingested as soon as a worker runs "
        f"(ask whoever runs Manda to start `manda worker`). `manda jobs --deal {deal}` shows "
        "where it stands."
    )
    return SlackMessage(text=fallback(text), blocks=[section(cut(text))])


def render_job_unfinished(job: IngestJob, followed: float) -> SlackMessage:
    """The bot stops following a job that is taking very long; the job itself goes on."""
    deal = escape(job.deal_id)
    text = (
        f"⏳ Job `{escape(job.id)}` ({_files(job)} for *{deal}*) is still {job.status.value} "
        f"after {_duration(followed)}; I stop following it here. It is not lost: "
        f"`manda jobs --deal {deal}` shows when it is done and what it ingested."
    )
    return SlackMessage(text=fallback(text), blocks=[section(cut(text))])
