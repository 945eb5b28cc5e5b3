"""Rewrites Office (OOXML) zip packages so the same content always yields the same bytes.

openpyxl stamps `modified` with the clock on every save and zip entries carry the time they were
written; both would change the file's hash (and so its document id) on every generation. The
zip is rewritten with a fixed entry time, fixed attributes and the document's own date in
`docProps/core.xml`. Deflate output is stable for a given zlib, which is what we rely on.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Mapping
from datetime import date
from pathlib import Path

PartTransform = Callable[[bytes], bytes]

_CORE_DATE = re.compile(rb"(<dcterms:(created|modified)\b[^>]*>)[^<]*(</dcterms:\2>)")


def rewrite_package(path: Path, issued: date,
                    transforms: Mapping[str, PartTransform] | None = None) -> None:
    """Pin timestamps in `path` to `issued` and apply `transforms` to the named parts."""
    transforms = dict(transforms or {})
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as src, \
            zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                data = pin_core_dates(data, issued)
            transform = transforms.pop(info.filename, None)
            if transform is not None:
                data = transform(data)
            entry = zipfile.ZipInfo(info.filename,
                                    date_time=(issued.year, issued.month, issued.day, 9, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.create_system = 0
            entry.external_attr = 0
            dst.writestr(entry, data)
    if transforms:
        raise KeyError(f"{path.name}: no part named {sorted(transforms)} to rewrite")
    path.write_bytes(out.getvalue())


def pin_core_dates(core_xml: bytes, issued: date) -> bytes:
    """Set `dcterms:created` and `dcterms:modified` to 09:00 UTC on the issue date."""
    stamp = f"{issued:%Y-%m-%d}T09:00:00Z".encode()
    return _CORE_DATE.sub(lambda m: m.group(1) + stamp + m.group(3), core_xml)
