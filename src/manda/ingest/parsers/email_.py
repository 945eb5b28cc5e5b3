"""E-mails (`.eml` with the standard library, Outlook `.msg` with extract-msg) as documents.

The headers a deal team files e-mails by (sender, recipients, date, subject) become the document's
metadata and its first section; the body is the text; attachments are read out here, and the
ingestion service files each as a document of its own, linked to the e-mail (`ATTACHED_TO`).
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import html
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath

from manda.ingest.parsers.base import ParseLimits, clean_block, short_detail, unreadable
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
class Email:
    """What Manda keeps of an e-mail: who, to whom, when, subject, text, attachments."""

    sender: str = ""
    to: str = ""
    cc: str = ""
    subject: str = ""
    sent: datetime | None = None
    body: str = ""
    attachments: list[Attachment] = field(default_factory=list)

    def metadata(self) -> dict[str, str]:
        pairs = {
            "from": self.sender,
            "to": self.to,
            "cc": self.cc,
            "subject": self.subject,
            "date": self.sent.isoformat() if self.sent else "",
        }
        return {key: value for key, value in pairs.items() if value}


def read_email(path: Path, file_type: str, filename: str) -> Email:
    """Read an `.eml` or `.msg` file; UnreadableFileError when it is not a readable e-mail."""
    if file_type == "msg":
        return _read_msg(path, filename)
    return _read_eml(path)


def parse_eml(path: Path, filename: str, limits: ParseLimits) -> ParsedDocument:
    del limits  # the size checks already ran in detect
    return _parsed(read_email(path, "eml", filename), filename, "eml")


def parse_msg(path: Path, filename: str, limits: ParseLimits) -> ParsedDocument:
    del limits
    return _parsed(read_email(path, "msg", filename), filename, "msg")


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
    if mail.attachments:
        headers.append("Attachments: " + ", ".join(a.filename for a in mail.attachments))
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


def _read_eml(path: Path) -> Email:
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
        data = part.get_payload(decode=True)
        if part.get_content_type() == "message/rfc822" and not data:
            inner = part.get_payload()
            data = inner[0].as_bytes() if isinstance(inner, list) and inner else b""
            name = part.get_filename() or "forwarded message.eml"
        else:
            name = part.get_filename() or f"attachment{_guess_suffix(part.get_content_type())}"
        if data:
            mail.attachments.append(Attachment(_safe_name(name), bytes(data)))
    return mail


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


def _safe_name(name: str) -> str:
    """An attachment's own name, without any folder it claims (`../../x.pdf` -> `x.pdf`)."""
    base = PurePosixPath(name.replace("\\", "/")).name.strip()
    return base or "attachment"


# ---------------------------------------------------------------- .msg (Outlook)


def _read_msg(path: Path, filename: str) -> Email:
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
        return _msg_email(message)
    finally:
        message.close()


def _msg_email(message: object) -> Email:
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
        data = getattr(attachment, "data", None)
        name = (
            getattr(attachment, "longFilename", None)
            or getattr(attachment, "shortFilename", None)
            or "attachment"
        )
        if isinstance(data, bytes) and data:
            mail.attachments.append(Attachment(_safe_name(name), data))
    return mail
