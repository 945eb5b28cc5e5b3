"""Files under `MANDA_HOME` hold a deal's confidential data room: only their owner may read them.

The home and every folder Manda makes in it are 0700, its databases 0600 (SQLite gives its `-wal`
and `-shm` files the database's own permissions). A home made by someone else is tightened when it
is ours to change, and left as it is (with a warning) when it is not.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)

DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: Path) -> Path:
    """Make `path` (and missing parents) with 0700, or tighten it when it exists and is ours."""
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    _tighten(path, DIR_MODE)
    return path


def private_file(path: Path) -> Path:
    """Create `path` empty with 0600 before a library opens it (or tighten an existing one)."""
    private_dir(path.parent)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, FILE_MODE))
    _tighten(path, FILE_MODE)
    return path


def _tighten(path: Path, mode: int) -> None:
    try:
        info = path.stat()
        if stat.S_IMODE(info.st_mode) & ~mode and info.st_uid == os.getuid():
            path.chmod(mode)
    except OSError as exc:
        log.warning("could not make %s private (%s); check its permissions", path, exc)
