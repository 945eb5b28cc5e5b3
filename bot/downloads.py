"""Downloading a shared file from Slack without handing the bot token to anyone else.

A file event names its own download URL, so the URL is untrusted input: it is fetched only over
HTTPS from Slack's file hosts (an allow-list), the token is sent only on that first request,
redirects are followed by hand and only within the allow-list (never with the token), and the size
is checked from the headers and again while streaming. The only other host ever accepted is the
loopback address `SLACK_API_URL` names (the local fake Slack of the tests and the playground).
"""

from __future__ import annotations

import ipaddress
import logging
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import aiohttp

log = logging.getLogger(__name__)

# Where Slack serves `url_private` / `url_private_download` (commercial and GovSlack).
# https://docs.slack.dev/messaging/working-with-files#authenticating
SLACK_FILE_HOSTS: frozenset[str] = frozenset({"files.slack.com", "files.slack-gov.com"})
MAX_REDIRECTS = 5
CHUNK = 1 << 16
DOWNLOAD_TIMEOUT = aiohttp.ClientTimeout(total=300, sock_read=60)
_REDIRECTS = {301, 302, 303, 307, 308}


class DownloadError(Exception):
    """A file that could not be fetched; the reason is written for the channel."""


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class FileHosts:
    """Which URLs a download may touch: Slack's file hosts over HTTPS, plus one local fake."""

    hosts: frozenset[str] = SLACK_FILE_HOSTS
    local: str | None = None  # "127.0.0.1:8123" of a fake Slack, plain HTTP allowed

    @classmethod
    def for_api_url(cls, api_url: str | None) -> FileHosts:
        """Slack's hosts, plus the fake's own address when `SLACK_API_URL` is on loopback.

        A non-loopback `SLACK_API_URL` adds nothing: the override exists for the local fake only.
        """
        if not api_url:
            return cls()
        parts = urlsplit(api_url)
        if parts.hostname and _loopback(parts.hostname):
            return cls(local=parts.netloc.lower())
        return cls()

    def allows(self, url: str) -> bool:
        parts = urlsplit(url)
        if parts.username or parts.password:
            return False
        if self.local is not None and parts.scheme == "http" and parts.netloc.lower() == self.local:
            return True
        host = (parts.hostname or "").lower().rstrip(".")
        port_ok = parts.port in (None, 443)
        return parts.scheme == "https" and port_ok and host in self.hosts

    def why_not(self, url: str) -> str:
        parts = urlsplit(url)
        return f"{parts.scheme or '?'}://{parts.hostname or '?'}"


def _too_big(max_bytes: int) -> DownloadError:
    return DownloadError(f"it is larger than the {max_bytes / 1e6:g} MB limit (MANDA_MAX_FILE_MB)")


async def download(
    session: aiohttp.ClientSession,
    url: str,
    *,
    token: str,
    target: Path,
    max_bytes: int,
    expected_type: str,
    hosts: FileHosts,
) -> int:
    """Stream `url` into `target`; return its size. Raises DownloadError saying why not."""
    if not hosts.allows(url):
        log.warning("refused a file download from %s: not a Slack file host", hosts.why_not(url))
        raise DownloadError(
            "its link does not point at Slack's file servers, so it was not downloaded"
        )
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(MAX_REDIRECTS + 1):
        async with session.get(url, headers=headers, allow_redirects=False) as resp:
            if resp.status in _REDIRECTS:
                location = resp.headers.get("Location", "")
                url = urljoin(url, location)
                if not location or not hosts.allows(url):
                    log.warning(
                        "refused a file download redirect to %s: not a Slack file host",
                        hosts.why_not(url),
                    )
                    raise DownloadError(
                        "Slack redirected the download outside its file servers; not followed"
                    )
                headers = {}  # the token goes to the first URL only
                continue
            return await _save(resp, target, max_bytes, expected_type)
    raise DownloadError(f"Slack redirected the download more than {MAX_REDIRECTS} times")


async def _save(
    resp: aiohttp.ClientResponse, target: Path, max_bytes: int, expected_type: str
) -> int:
    if resp.status != 200:
        raise DownloadError(f"Slack refused the download (HTTP {resp.status})")
    if resp.content_type == "text/html" and "html" not in expected_type:
        raise DownloadError(
            "Slack sent its sign-in page instead of the file: the app needs the `files:read` "
            "scope (reinstall it from manifest.yml)"
        )
    if resp.content_length is not None and resp.content_length > max_bytes:
        raise _too_big(max_bytes)
    size = 0
    try:
        with target.open("wb") as out:
            async for chunk in resp.content.iter_chunked(CHUNK):
                size += len(chunk)
                if size > max_bytes:
                    raise _too_big(max_bytes)
                out.write(chunk)
    except DownloadError:
        target.unlink(missing_ok=True)
        raise
    return size
