#!/usr/bin/env python3
"""Test vectors and verdicts for WebServiceKit's inflater, from zlib (an independent implementation).

    zlib_reference.py generate SEED COUNT MUTATIONS   writes records to stdout
    zlib_reference.py judge                           reads records without a verdict on stdin,
                                                      writes them back with zlib's verdict

A record: coding (1 byte: 0 gzip, 1 deflate), flags (1 byte: 1 = a mutation of a valid stream),
u32 length + the encoded body, verdict (1 byte: 0 decoded, 1 error), u32 length + the decoded body
(empty after an error). Lengths are little-endian. `judge` reads records of the first three fields.

The verdict follows the library's rules (Sources/WebServiceKit/ContentCoding), deciding every
byte of DEFLATE, zlib and gzip data with zlib itself:
- gzip: zero bytes are an empty body; otherwise one or more members (zlib, wbits 31, checks the
  header, FHCRC, CRC-32 and ISIZE); after a member, anything but another member is an error.
- deflate: zero bytes are an empty body; a zlib header (CM 8, CINFO <= 7, FCHECK) means zlib data
  (FDICT refused), otherwise raw DEFLATE data; nothing may follow the end of the stream.
"""

import random
import struct
import sys
import zlib

GZIP, DEFLATE = 0, 1


class Refused(Exception):
    pass


def reference_gzip(data):
    out = []
    while data:
        decoder = zlib.decompressobj(31)
        out.append(decoder.decompress(data))
        if not decoder.eof:
            raise Refused("truncated")
        data = decoder.unused_data
    return b"".join(out)


def reference_deflate(data):
    if not data:
        return b""
    if len(data) < 2:
        raise Refused("truncated")
    first, second = data[0], data[1]
    if first & 0x0F == 8 and first >> 4 <= 7 and (first << 8 | second) % 31 == 0:
        if second & 0x20:
            raise Refused("FDICT")
        wbits = 15
    else:
        wbits = -15
    decoder = zlib.decompressobj(wbits)
    out = decoder.decompress(data)
    if not decoder.eof:
        raise Refused("truncated")
    if decoder.unused_data:
        raise Refused("trailing data")
    return out


def verdict(coding, data):
    try:
        return 0, (reference_gzip if coding == GZIP else reference_deflate)(data)
    except (zlib.error, Refused):
        return 1, b""


def write_record(out, coding, flags, encoded):
    status, decoded = verdict(coding, encoded)
    out.write(struct.pack("<BBI", coding, flags, len(encoded)))
    out.write(encoded)
    out.write(struct.pack("<BI", status, len(decoded)))
    out.write(decoded)


def sample_data(rng):
    """Random, repetitive or text-like bytes; mostly small, some up to 1 MiB."""
    roll = rng.random()
    if roll < 0.7:
        size = rng.randint(0, 4096)
    elif roll < 0.98:
        size = rng.randint(4096, 64 * 1024)
    else:
        size = rng.randint(512 * 1024, 1024 * 1024)
    kind = rng.randrange(5)
    if kind == 0:
        return rng.randbytes(size)
    if kind == 1:
        return bytes([rng.randrange(256)]) * size
    if kind == 2:
        words = [rng.randbytes(rng.randint(1, 12)) for _ in range(rng.randint(1, 64))]
        parts, total = [], 0
        while total < size:
            word = rng.choice(words)
            parts.append(word)
            total += len(word)
        return b"".join(parts)[:size]
    if kind == 3:
        # Runs of a few symbols: long matches at short distances (overlapping copies).
        alphabet = rng.randbytes(rng.randint(1, 4))
        return bytes(rng.choice(alphabet) for _ in range(min(size, 65536))) * (size // 65536 + 1)
    # Far repeats: a block, noise, the block again (distances up to the window).
    block = rng.randbytes(rng.randint(1, 4096))
    gap = rng.randbytes(rng.randint(0, 32 * 1024))
    return (block + gap + block) * (size // (2 * len(block) + len(gap) + 1) + 1)


def compress(rng, data, wbits):
    level = rng.randint(0, 9)
    strategy = rng.choice([zlib.Z_DEFAULT_STRATEGY, zlib.Z_FILTERED, zlib.Z_HUFFMAN_ONLY, zlib.Z_RLE, zlib.Z_FIXED])
    compressor = zlib.compressobj(level, zlib.DEFLATED, wbits, rng.randint(1, 9), strategy)
    parts, offset = [], 0
    # Flushes in the middle: empty stored blocks, block boundaries anywhere.
    while offset < len(data):
        step = rng.randint(1, max(1, len(data) // rng.randint(1, 4)))
        parts.append(compressor.compress(data[offset : offset + step]))
        offset += step
        if rng.random() < 0.3:
            parts.append(compressor.flush(rng.choice([zlib.Z_SYNC_FLUSH, zlib.Z_FULL_FLUSH, zlib.Z_BLOCK])))
    parts.append(compressor.flush())
    return b"".join(parts)


def valid_stream(rng):
    """A (coding, encoded) pair zlib made: raw DEFLATE, zlib or gzip, sometimes several gzip members."""
    form = rng.randrange(3)
    if form == 0:
        return DEFLATE, compress(rng, sample_data(rng), -rng.randint(9, 15))
    if form == 1:
        return DEFLATE, compress(rng, sample_data(rng), rng.randint(9, 15))
    members = 1 if rng.random() < 0.8 else rng.randint(2, 4)
    return GZIP, b"".join(compress(rng, sample_data(rng), 16 + rng.randint(9, 15)) for _ in range(members))


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        operation = rng.randrange(6)
        if operation == 0 and data:
            index = rng.randrange(len(data))
            data[index] ^= 1 << rng.randrange(8)
        elif operation == 1 and data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif operation == 2:
            data.insert(rng.randint(0, len(data)), rng.randrange(256))
        elif operation == 3 and data:
            del data[rng.randrange(len(data))]
        elif operation == 4:
            del data[rng.randint(0, len(data)) :]
        else:
            data += rng.randbytes(rng.randint(1, 4))
    return bytes(data)


def generate(seed, count, mutations):
    rng = random.Random(seed)
    out = sys.stdout.buffer
    small = []
    for _ in range(count):
        coding, encoded = valid_stream(rng)
        write_record(out, coding, 0, encoded)
        if len(encoded) <= 2048:
            small.append((coding, encoded))
    for _ in range(mutations):
        if not small:
            break
        coding, encoded = rng.choice(small)
        write_record(out, coding, 1, mutate(rng, encoded))


def read_exactly(stream, count):
    data = stream.read(count)
    if len(data) != count:
        raise EOFError
    return data


def judge():
    source, out = sys.stdin.buffer, sys.stdout.buffer
    while True:
        head = source.read(6)
        if not head:
            break
        if len(head) != 6:
            raise EOFError
        coding, flags, length = struct.unpack("<BBI", head)
        write_record(out, coding, flags, read_exactly(source, length))


if __name__ == "__main__":
    if sys.argv[1:2] == ["generate"] and len(sys.argv) == 5:
        generate(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1:] == ["judge"]:
        judge()
    else:
        sys.exit(__doc__)
