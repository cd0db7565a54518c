"""Zips as a hostile student makes them: built with zipfile, then their bytes changed where the format
says (APPNOTE: local headers, the central directory), for what zipfile itself will not write."""
import io
import stat
import struct
import zipfile

WHEN = (2026, 3, 3, 9, 0, 0)


def make_zip(entries: dict, compression=zipfile.ZIP_DEFLATED, zip64: bool = False) -> bytes:
    """entries: name -> bytes (or a ZipInfo-ready (bytes, external_attr) pair for a link or a special file)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, content in entries.items():
            data, mode = content if isinstance(content, tuple) else (content, 0o644 | stat.S_IFREG)
            info = zipfile.ZipInfo(name, WHEN)
            info.create_system, info.external_attr, info.compress_type = 3, mode << 16, compression
            with archive.open(info, "w", force_zip64=zip64) as handle:
                handle.write(data)
    return buffer.getvalue()


def symlink_entry(target: str) -> tuple[bytes, int]:
    """A zip entry a Unix zip stores for a symbolic link: the target as its data, S_IFLNK as its mode."""
    return target.encode(), stat.S_IFLNK | 0o777


def _central_entries(data: bytes):
    """(offset, name) of each central directory record."""
    end = data.rfind(b"PK\x05\x06")
    count, _, start = struct.unpack("<HII", data[end + 10:end + 20])
    offset = start
    for _ in range(count):
        assert data[offset:offset + 4] == b"PK\x01\x02"
        name_length, extra_length, comment_length = struct.unpack("<HHH", data[offset + 28:offset + 34])
        yield offset, data[offset + 46:offset + 46 + name_length]
        offset += 46 + name_length + extra_length + comment_length


def with_flag(data: bytes, name: str, flag: int) -> bytes:
    """The zip with a general purpose flag set on ``name`` in its local header and its directory record
    (0x1: encrypted)."""
    out = bytearray(data)
    for offset, found in _central_entries(data):
        if found == name.encode():
            (local,) = struct.unpack("<I", data[offset + 42:offset + 46])
            for at in (offset + 8, local + 6):
                (bits,) = struct.unpack("<H", out[at:at + 2])
                out[at:at + 2] = struct.pack("<H", bits | flag)
    return bytes(out)


def with_declared_size(data: bytes, name: str, size: int) -> bytes:
    """The zip with ``name``'s uncompressed size declared as ``size`` in its directory record (a lie)."""
    out = bytearray(data)
    for offset, found in _central_entries(data):
        if found == name.encode():
            out[offset + 24:offset + 28] = struct.pack("<I", size)
    return bytes(out)


def with_bad_crc(data: bytes, name: str) -> bytes:
    """The zip with one byte of ``name``'s stored data changed: its CRC-32 no longer matches."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    info = archive.getinfo(name)
    assert info.compress_type == zipfile.ZIP_STORED and info.file_size > 0
    name_length, extra_length = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
    at = info.header_offset + 30 + name_length + extra_length
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:]


def with_invalid_utf8_name(data: bytes, marker: str = "é") -> bytes:
    """The zip with ``marker`` (in a name zipfile flagged as UTF-8) turned into bytes that are not UTF-8."""
    return data.replace(marker.encode("utf-8"), b"\xff\xfe")
