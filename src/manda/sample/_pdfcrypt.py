"""Encrypts a ReportLab PDF with AES-128 and an empty user password, reproducibly.

Real filings often arrive "encrypted" with an empty user password (anyone can open them, an owner
password restricts editing). pypdf and ReportLab can both write such files, but each picks a
random initialisation vector per string and stream (and pypdf a random file id), so the same
report would get new bytes, a new content hash and a new document id on every generation. This
module implements the PDF Standard Security Handler, revision 4 with the AESV2 crypt filter
(ISO 32000-1, 7.6.3, algorithms 1, 2, 3 and 5), and derives each IV from the key, the object
and the plaintext. That is only safe because the plaintext is public sample data; never use
this for real secrets.

It reads the simple, uncompressed object layout ReportLab writes (one indirect object after
another, direct `/Length`, a classic xref table) and refuses anything else.
"""

from __future__ import annotations

import hashlib
import hmac
import re

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

_PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")
# Print, copy/extract, accessibility and high-quality print allowed; modify, annotate, fill
# forms and assemble not. Bits 7-8 and 13-32 are reserved and must be 1 (ISO 32000-1, table 22).
READ_ONLY_PERMISSIONS = -1324

_OBJ_HEADER = re.compile(rb"(\d+)\s+(\d+)\s+obj\b")
_DIRECT_LENGTH = re.compile(rb"/Length\s+(\d+)(?!\s+\d+\s+R)")
_WHITESPACE = b" \t\r\n\f\x00"
_DELIMITERS = b"()<>[]{}/%"


class PdfLayoutError(ValueError):
    """The PDF is not in the simple layout this encrypter understands."""


def encrypt_pdf(plain: bytes, *, owner_password: str, user_password: str = "",
                permissions: int = READ_ONLY_PERMISSIONS) -> bytes:
    """Return `plain` encrypted with AES-128 (V4/R4, AESV2); same input, same bytes."""
    if not owner_password:
        raise ValueError("an owner password is required; an empty one would grant full rights")
    trailer_at = plain.rfind(b"trailer")
    xref_at = plain.rfind(b"\nxref", 0, trailer_at)
    if trailer_at < 0 or xref_at < 0:
        raise PdfLayoutError("no classic xref table and trailer found")
    trailer = plain[trailer_at:]
    root = _trailer_ref(trailer, b"Root")
    info = _trailer_ref(trailer, b"Info")
    file_id = hashlib.md5(plain).digest()

    owner_entry = _owner_entry(owner_password, user_password)
    file_key = _file_key(user_password, owner_entry, permissions, file_id)
    user_entry = _user_entry(file_key, file_id)

    first = _OBJ_HEADER.search(plain)
    if first is None:
        raise PdfLayoutError("no indirect objects found")
    out = bytearray(plain[: first.start()].replace(b"%PDF-1.4", b"%PDF-1.6", 1))
    offsets: dict[int, int] = {}
    pos = first.start()
    while True:
        header = _OBJ_HEADER.match(plain, pos)
        if header is None:
            break
        number, generation = int(header.group(1)), int(header.group(2))
        cipher = _ObjectCipher(file_key, number, generation)
        body, end = _encrypt_body(plain, header.end(), cipher)
        offsets[number] = len(out)
        out += header.group(0) + body + b"endobj\n"
        pos = _skip_whitespace(plain, end)
    if pos != xref_at + 1:
        raise PdfLayoutError(f"unexpected content at byte {pos} before the xref table")

    encrypt_number = max(offsets) + 1
    offsets[encrypt_number] = len(out)
    out += (
        f"{encrypt_number} 0 obj\n<< /Filter /Standard /V 4 /R 4 /Length 128 "
        "/CF << /StdCF << /AuthEvent /DocOpen /CFM /AESV2 /Length 16 >> >> "
        f"/StmF /StdCF /StrF /StdCF /P {permissions} "
        f"/O <{owner_entry.hex()}> /U <{user_entry.hex()}> >>\nendobj\n"
    ).encode()
    out += _xref_and_trailer(offsets, len(out), root=root, info=info,
                             encrypt_number=encrypt_number, file_id=file_id)
    return bytes(out)


# ---------------------------------------------------------------- key derivation (7.6.3.3)


def _rc4(key: bytes, data: bytes) -> bytes:
    state = list(range(256))
    j = 0
    for i in range(256):
        j = (j + state[i] + key[i % len(key)]) % 256
        state[i], state[j] = state[j], state[i]
    i = j = 0
    out = bytearray()
    for byte in data:
        i = (i + 1) % 256
        j = (j + state[i]) % 256
        state[i], state[j] = state[j], state[i]
        out.append(byte ^ state[(state[i] + state[j]) % 256])
    return bytes(out)


def _padded(password: str) -> bytes:
    raw = password.encode("latin-1")[:32]
    return raw + _PAD[: 32 - len(raw)]


def _rc4_twenty_rounds(key: bytes, data: bytes) -> bytes:
    data = _rc4(key, data)
    for i in range(1, 20):
        data = _rc4(bytes(b ^ i for b in key), data)
    return data


def _owner_entry(owner_password: str, user_password: str) -> bytes:
    """Algorithm 3: the /O entry."""
    digest = hashlib.md5(_padded(owner_password)).digest()
    for _ in range(50):
        digest = hashlib.md5(digest).digest()
    return _rc4_twenty_rounds(digest[:16], _padded(user_password))


def _file_key(user_password: str, owner_entry: bytes, permissions: int, file_id: bytes) -> bytes:
    """Algorithm 2: the 128-bit file encryption key."""
    md5 = hashlib.md5(_padded(user_password))
    md5.update(owner_entry)
    md5.update((permissions & 0xFFFFFFFF).to_bytes(4, "little"))
    md5.update(file_id)
    digest = md5.digest()
    for _ in range(50):
        digest = hashlib.md5(digest[:16]).digest()
    return digest[:16]


def _user_entry(file_key: bytes, file_id: bytes) -> bytes:
    """Algorithm 5: the /U entry (16 meaningful bytes, 16 bytes of padding)."""
    return _rc4_twenty_rounds(file_key, hashlib.md5(_PAD + file_id).digest()) + _PAD[:16]


class _ObjectCipher:
    """Algorithm 1 for AESV2: a per-object key, AES-128-CBC, PKCS#7, IV prepended."""

    def __init__(self, file_key: bytes, number: int, generation: int) -> None:
        salt = number.to_bytes(3, "little") + generation.to_bytes(2, "little") + b"sAlT"
        self._key = hashlib.md5(file_key + salt).digest()
        self._iv_key = hmac.new(file_key, salt, hashlib.sha256).digest()

    def encrypt(self, data: bytes) -> bytes:
        iv = hmac.new(self._iv_key, data, hashlib.sha256).digest()[:16]
        padder = padding.PKCS7(128).padder()
        padded = padder.update(data) + padder.finalize()
        encryptor = Cipher(algorithms.AES(self._key), modes.CBC(iv)).encryptor()
        return iv + encryptor.update(padded) + encryptor.finalize()


# ---------------------------------------------------------------- object rewriting


def _encrypt_body(pdf: bytes, start: int, cipher: _ObjectCipher) -> tuple[bytes, int]:
    """Encrypt the strings and stream of one object; return its new body and the end offset."""
    out = bytearray()
    i = start
    while i < len(pdf):
        ch = pdf[i : i + 1]
        if pdf.startswith(b"endobj", i):
            return bytes(out), i + len(b"endobj")
        if ch == b"(":
            raw, i = _read_literal_string(pdf, i)
            out += b"<" + cipher.encrypt(raw).hex().encode() + b">"
        elif pdf.startswith(b"<<", i) or pdf.startswith(b">>", i):
            out += pdf[i : i + 2]
            i += 2
        elif ch == b"<":
            end = pdf.index(b">", i)
            digits = bytes(c for c in pdf[i + 1 : end] if c not in _WHITESPACE)
            if len(digits) % 2:
                digits += b"0"
            out += b"<" + cipher.encrypt(bytes.fromhex(digits.decode())).hex().encode() + b">"
            i = end + 1
        elif ch == b"%":
            raise PdfLayoutError(f"comment inside an object at byte {i}")
        elif _is_stream_keyword(pdf, i):
            i = _encrypt_stream(pdf, i, out, cipher)
        else:
            out += ch
            i += 1
    raise PdfLayoutError(f"object starting at byte {start} has no endobj")


def _is_stream_keyword(pdf: bytes, i: int) -> bool:
    if i == 0 or not pdf.startswith(b"stream", i):
        return False
    before, after = pdf[i - 1], pdf[i + 6 : i + 7]
    return (before in _WHITESPACE or before == ord(">")) and after in (b"\r", b"\n")


def _encrypt_stream(pdf: bytes, i: int, out: bytearray, cipher: _ObjectCipher) -> int:
    lengths = list(_DIRECT_LENGTH.finditer(out))
    if not lengths:
        raise PdfLayoutError(f"stream at byte {i} has no direct /Length")
    length = int(lengths[-1].group(1))
    data_start = i + len(b"stream") + (2 if pdf.startswith(b"\r\n", i + 6) else 1)
    data = pdf[data_start : data_start + length]
    end = _skip_whitespace(pdf, data_start + length)
    if not pdf.startswith(b"endstream", end):
        raise PdfLayoutError(f"stream at byte {i} does not end where /Length says")
    encrypted = cipher.encrypt(data)
    last = lengths[-1]
    out[last.start() : last.end()] = b"/Length %d" % len(encrypted)
    out += b"stream\n" + encrypted + b"\nendstream\n"
    return end + len(b"endstream")


_ESCAPES = {ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b",
            ord("f"): b"\f", ord("("): b"(", ord(")"): b")", ord("\\"): b"\\"}


def _read_literal_string(pdf: bytes, i: int) -> tuple[bytes, int]:
    """Decode the literal string starting at `(` (ISO 32000-1, 7.3.4.2)."""
    out = bytearray()
    depth = 1
    i += 1
    while i < len(pdf):
        c = pdf[i]
        if c == ord("\\"):
            nxt = pdf[i + 1]
            if nxt in _ESCAPES:
                out += _ESCAPES[nxt]
                i += 2
            elif 0x30 <= nxt <= 0x37:
                digits = re.match(rb"[0-7]{1,3}", pdf[i + 1 : i + 4])
                assert digits is not None
                out.append(int(digits.group(0), 8) & 0xFF)
                i += 1 + len(digits.group(0))
            elif nxt in (0x0D, 0x0A):  # line continuation
                i += 3 if pdf.startswith(b"\r\n", i + 1) else 2
            else:
                out.append(nxt)
                i += 2
            continue
        if c == ord("("):
            depth += 1
        elif c == ord(")"):
            depth -= 1
            if depth == 0:
                return bytes(out), i + 1
        if c == 0x0D:  # an unescaped end of line is always a single newline
            out += b"\n"
            i += 2 if pdf.startswith(b"\r\n", i) else 1
            continue
        out.append(c)
        i += 1
    raise PdfLayoutError("unterminated literal string")


def _skip_whitespace(pdf: bytes, i: int) -> int:
    while i < len(pdf) and pdf[i] in _WHITESPACE:
        i += 1
    return i


def _trailer_ref(trailer: bytes, key: bytes) -> bytes:
    found = re.search(rb"/" + key + rb"\s+(\d+\s+\d+\s+R)", trailer)
    if found is None:
        raise PdfLayoutError(f"trailer has no /{key.decode()} reference")
    return found.group(1)


def _xref_and_trailer(offsets: dict[int, int], xref_offset: int, *, root: bytes, info: bytes,
                      encrypt_number: int, file_id: bytes) -> bytes:
    size = max(offsets) + 1
    lines = [b"xref", b"0 %d" % size, b"0000000000 65535 f "]
    for number in range(1, size):
        if number not in offsets:
            raise PdfLayoutError(f"object {number} is missing")
        lines.append(b"%010d 00000 n " % offsets[number])
    lines += [
        b"trailer",
        b"<< /Size %d /Root %s /Info %s /Encrypt %d 0 R /ID [<%s><%s>] >>"
        % (size, root, info, encrypt_number, file_id.hex().encode(), file_id.hex().encode()),
        b"startxref",
        b"%d" % xref_offset,
        b"%%EOF",
        b"",
    ]
    return b"\n".join(lines)
