"""E-mails (`.eml` with the standard library, Outlook `.msg` with extract-msg) as documents.

The headers a deal team files e-mails by (sender, recipients, date, subject) become the document's
metadata and its first section; the body is the text; attachments are read out here (in the
reader process, like any file), and the ingestion service files each as a document of its own,
linked to the e-mail (`ATTACHED_TO`).

An e-mail is untrusted: its own size is checked before it is parsed, and each attachment's size
is bounded before it is decoded — the size its part declares (`Content-Disposition: size=`) and
the most its encoded text can decode to — and checked again once decoded. An attachment over
the allowance is named with the reason and never decoded; reading the e-mail as a document
decodes none of them (it names them only).
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import html
import re
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage, Message
from pathlib import Path, PurePosixPath

from manda.ingest.parsers.base import (
    DEFAULT_LIMITS,
    ParseLimits,
    clean_block,
    human_size,
    over_limit,
    short_detail,
    unreadable,
)
from manda.models import Location, ParsedDocument, Section

HEADER_SECTION = "e-mail headers"
BODY_SECTION = "e-mail body"
_TAG = re.compile(r"<[^>]+>")
_BLOCK_END = re.compile(r"</(p|div|tr|li|h[1-6])\s*>|<br\s*/?>", re.IGNORECASE)
_SCRIPT = re.compile(r"<(script|style)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL)


@dataclass
class Attachment:
    """A file carried by an e-mail: the name it was sent under and its bytes."""

    filename: str
    data: bytes


@dataclass
class RefusedAttachment:
    """An attachment that was not decoded, and why (a person reads the reason after its name)."""

    filename: str
    reason: str


@dataclass
class Email:
    """What Manda keeps of an e-mail: who, to whom, when, subject, text, attachments."""

    sender: str = ""
    to: str = ""
    cc: str = ""
    subject: str = ""
    sent: datetime | None = None
    body: str = ""
    attachments: list[Attachment] = field(default_factory=list)
    attachment_names: list[str] = field(default_factory=list)
    refused: list[RefusedAttachment] = field(default_factory=list)

    def metadata(self) -> dict[str, str]:
        pairs = {
            "from": self.sender,
            "to": self.to,
            "cc": self.cc,
            "subject": self.subject,
            "date": self.sent.isoformat() if self.sent else "",
        }
        return {key: value for key, value in pairs.items() if value}


def read_email(
    path: Path, file_type: str, filename: str, limits: ParseLimits = DEFAULT_LIMITS, *,
    decode_up_to: int | None = None,
) -> Email:
    """Read an `.eml` or `.msg` file; UnreadableFileError when it is not a readable e-mail or is
    over the file size limit. With `decode_up_to` (bytes), attachments are decoded, each at most
    that large and at most the file size limit; without it they are only named."""
    size = path.stat().st_size
    if size > limits.max_bytes:
        raise over_limit(filename, f"is {human_size(size)}", human_size(limits.max_bytes),
                         "MANDA_MAX_FILE_MB")
    allowed = None if decode_up_to is None else min(decode_up_to, limits.max_bytes)
    if file_type == "msg":
        return _read_msg(path, filename, allowed)
    return _read_eml(path, allowed)


def parse_eml(path: Path, filename: str, limits: ParseLimits) -> ParsedDocument:
    return _parsed(read_email(path, "eml", filename, limits), filename, "eml")


def parse_msg(path: Path, filename: str, limits: ParseLimits) -> ParsedDocument:
    return _parsed(read_email(path, "msg", filename, limits), filename, "msg")


def _parsed(mail: Email, filename: str, file_type: str) -> ParsedDocument:
    headers = [
        f"{label}: {value}"
        for label, value in (
            ("From", mail.sender),
            ("To", mail.to),
            ("Cc", mail.cc),
            ("Date", mail.sent.strftime("%d %B %Y %H:%M") if mail.sent else ""),
            ("Subject", mail.subject),
        )
        if value
    ]
    if mail.attachment_names:
        headers.append("Attachments: " + ", ".join(mail.attachment_names))
    path = (mail.subject,) if mail.subject else ()  # an e-mail's text stands under its subject
    sections = [Section(text="\n".join(headers), location=Location.for_section(HEADER_SECTION),
                        heading_path=path)]
    body = clean_block(mail.body)
    if body:
        sections.append(Section(text=body, location=Location.for_section(BODY_SECTION),
                                heading_path=path))
    return ParsedDocument(
        filename=filename,
        file_type=file_type,
        sections=sections,
        units=len(sections),
        title=mail.subject or None,
        doc_date=mail.sent.date() if mail.sent else None,
        metadata=mail.metadata(),
    )


# ---------------------------------------------------------------- .eml (RFC 5322 / MIME)


def _read_eml(path: Path, allowed: int | None) -> Email:
    # https://docs.python.org/3/library/email.parser.html — policy.default gives EmailMessage
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    mail = Email(
        sender=str(message.get("From", "") or ""),
        to=str(message.get("To", "") or ""),
        cc=str(message.get("Cc", "") or ""),
        subject=" ".join(str(message.get("Subject", "") or "").split()),
        sent=_date(message.get("Date")),
    )
    body = message.get_body(preferencelist=("plain", "html"))  # type: ignore[attr-defined]
    if body is not None:
        text = body.get_content()
        mail.body = _html_text(text) if body.get_content_type() == "text/html" else text
    for part in message.iter_attachments():  # type: ignore[attr-defined]
        forwarded = part.get_content_type() == "message/rfc822"
        default = "forwarded message.eml" if forwarded else (
            f"attachment{_guess_suffix(part.get_content_type())}")
        name = safe_attachment_name(part.get_filename() or default)
        mail.attachment_names.append(name)
        if allowed is None:
            continue  # named, never decoded
        refusal = _too_large(part, allowed)
        if refusal:
            mail.refused.append(RefusedAttachment(name, refusal))
            continue
        data = _decoded(part, forwarded)
        if len(data) > allowed:
            mail.refused.append(RefusedAttachment(name, _over(len(data), allowed)))
        elif data:
            mail.attachments.append(Attachment(name, data))
    return mail


def _too_large(part: EmailMessage, allowed: int) -> str | None:
    """Why an attachment is refused before it is decoded: the size its part declares, or the
    most its encoded payload can decode to, over `allowed`; None when it may be decoded."""
    declared = part.get_param("size", header="content-disposition")
    if isinstance(declared, str) and declared.strip().isdigit() and int(declared) > allowed:
        return _over(int(declared), allowed, "declares")
    raw = part.get_payload(decode=False)
    encoded = len(raw) if isinstance(raw, str | bytes) else sum(
        len(p.as_bytes()) for p in raw if isinstance(p, Message))
    encoding = str(part.get("Content-Transfer-Encoding", "")).strip().lower()
    bound = encoded * 3 // 4 + 3 if encoding == "base64" else encoded
    if bound > allowed:
        return _over(bound, allowed, "would decode to up to")
    return None


def _over(size: int, allowed: int, verb: str = "is") -> str:
    return (
        f"{verb} {human_size(size)}, over the {human_size(allowed)} this upload may still "
        "unpack (MANDA_MAX_FILE_MB per file, MANDA_MAX_ARCHIVE_MB per upload); it was not "
        "opened — send it as a file of its own"
    )


def _decoded(part: EmailMessage, forwarded: bool) -> bytes:
    data = part.get_payload(decode=True)
    if forwarded and not data:
        inner = part.get_payload()
        return inner[0].as_bytes() if isinstance(inner, list) and inner else b""
    return bytes(data or b"")


def _date(value: object) -> datetime | None:
    if not value:
        return None
    try:
        return email.utils.parsedate_to_datetime(str(value))
    except (TypeError, ValueError, IndexError):
        return None


def _guess_suffix(content_type: str) -> str:
    import mimetypes

    return mimetypes.guess_extension(content_type) or ".bin"


def _html_text(text: str) -> str:
    text = _SCRIPT.sub("", text)
    text = _BLOCK_END.sub("\n", text)
    return html.unescape(_TAG.sub("", text))


NAME_LIMIT = 150  # characters: file systems refuse names past 255 bytes


def safe_attachment_name(name: str) -> str:
    """An attachment's own name as a file name of this machine: without any folder it claims
    (`../../x.pdf` -> `x.pdf`), never `.` or `..`, without control characters, and short enough
    to write (its type suffix kept)."""
    base = PurePosixPath(name.replace("\\", "/")).name
    base = "".join(ch for ch in base if ch.isprintable()).strip()
    if base.strip(".") == "":
        return "attachment"
    if len(base) > NAME_LIMIT:
        _, dot, suffix = base.rpartition(".")
        keep = f".{suffix}" if dot and 0 < len(suffix) <= 10 else ""
        base = base[: NAME_LIMIT - len(keep)].rstrip() + keep
    return base


# ---------------------------------------------------------------- .msg (Outlook)


def _read_msg(path: Path, filename: str, allowed: int | None) -> Email:
    try:
        import extract_msg
    except ImportError:  # an optional extra: extract-msg is GPL-3.0
        raise unreadable(
            filename,
            "is an Outlook e-mail (.msg) and the reader for it is not installed; "
            "run `pip install 'manda[msg]'` (extract-msg) or save the e-mail as .eml",
        ) from None
    try:
        message = extract_msg.openMsg(str(path))
    except Exception as exc:  # the library raises many kinds on damaged files
        reason = f"is corrupt: damaged Outlook e-mail ({short_detail(exc)}); ask for a fresh copy"
        raise unreadable(filename, reason) from exc
    try:
        return _msg_email(message, allowed)
    finally:
        message.close()


def _msg_email(message: object, allowed: int | None) -> Email:
    def get(name: str) -> object:
        return getattr(message, name, None)

    body = str(get("body") or "")
    if not body.strip():
        html_body = get("htmlBody")
        if isinstance(html_body, bytes):
            body = _html_text(html_body.decode("utf-8", "replace"))
    sent = get("date")
    mail = Email(
        sender=str(get("sender") or ""),
        to=str(get("to") or ""),
        cc=str(get("cc") or ""),
        subject=" ".join(str(get("subject") or "").split()),
        sent=sent if isinstance(sent, datetime) else None,
        body=body,
    )
    for attachment in get("attachments") or ():  # type: ignore[attr-defined]
        name = safe_attachment_name(
            getattr(attachment, "longFilename", None)
            or getattr(attachment, "shortFilename", None)
            or "attachment"
        )
        mail.attachment_names.append(name)
        if allowed is None:
            continue
        # an Outlook file stores attachments as they are, so each is bounded by the file's size
        data = getattr(attachment, "data", None)
        if isinstance(data, bytes) and len(data) > allowed:
            mail.refused.append(RefusedAttachment(name, _over(len(data), allowed)))
        elif isinstance(data, bytes) and data:
            mail.attachments.append(Attachment(name, data))
    return mail
