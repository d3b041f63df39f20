"""The CRC-32 of a kept file taken as its bytes are written, not read back after (a million
papers' entry is 1.8 GB, a second to read again): the digest core.flat.disk keeps in a
manifest for each array, which core.segments.sound checks the file against."""

import zlib
from typing import IO

# What one zero byte makes of the register holding each bit alone (its linear part).
_ONE_ZERO = [zlib.crc32(b"\0", 1 << bit) ^ zlib.crc32(b"\0") for bit in range(32)]


def hex_digest(crc: int) -> str:
    """A CRC-32 as a manifest keeps it."""
    return f"{crc:08x}"


def joined(first: int, second: int, length: int) -> int:
    """The CRC-32 of two byte strings one after the other, from each one's and the second's
    length: CRC-32 is linear, so the first's register is carried over `length` zero bytes (the
    one byte's map squared for each bit of the length) and the second's added."""
    power, value = _ONE_ZERO, first
    while length:
        if length & 1:
            value = _applied(power, value)
        power = [_applied(power, column) for column in power]
        length >>= 1
    return value ^ second


def _applied(columns: list[int], value: int) -> int:
    """A linear map of 32 bits (a column a bit) applied to a value."""
    out, bit = 0, 0
    while value:
        if value & 1:
            out ^= columns[bit]
        value, bit = value >> 1, bit + 1
    return out


class Digesting:
    """A file being written: the CRC-32 and count of the bytes written through it, taken as
    they go (`digest` is set by whoever finishes the file, core.frames.bytes_file)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.crc = 0
        self.size = 0
        self.digest = ""

    def write(self, data: bytes | memoryview) -> int:
        self.crc = zlib.crc32(data, self.crc)
        self.size += memoryview(data).nbytes
        return self.stream.write(data)
