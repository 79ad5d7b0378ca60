"""Writes Server-Sent Event streams and httpx-sse's reading of each, for the differential test of
the SSE parser (Tests/WebServiceKitTests/ServerSentEventDifferentialTests.swift).

    python sse_cases.py OUTPUT [COUNT] [SEED]

Runs in the virtual environment of Tests/Servers/requirements-differential.txt (httpx-sse, pinned).
COUNT (default 5000) streams, from a fixed SEED (default 24) so that a run is reproducible: lines
of known and unknown fields, comments, fields without a colon, one or two spaces after the colon,
values with NUL, non-ASCII text and invalid UTF-8, retry values with signs, spaces, underscores,
non-ASCII digits and numbers past 2^63, LF / CRLF / lone CR line ends, blank lines, a leading BOM,
an unterminated last line, and random byte mutations.

The stream is decoded as the WHATWG algorithm does (UTF-8 with replacement, one leading BOM
removed: httpx leaves the BOM to the caller), cut into random text pieces, split by httpx_sse's
SSELineDecoder and read by its SSEDecoder, lines left at the end included (flush), as httpx_sse's
EventSource does.

One line per stream, tab-separated: the stream (base64), then the events joined by ";", each
    type(base64),data(base64),id(base64),retry,had_data,lenient_retry,huge_retry
retry is "-" when None; had_data is 1 when the event's block had a data line (the WHATWG
algorithm dispatches nothing otherwise, httpx-sse does); lenient_retry is 1 when a retry value
of the block was taken by int() without being ASCII digits only; huge_retry 1 when one was ASCII
digits past 2^63 - 1.
"""

import base64
import importlib.util
import pathlib
import random
import sys
import types

# httpx_sse's decoders need nothing from httpx, which its __init__ imports (and which is not
# installed): the package is entered without running its __init__.
_root = pathlib.Path(importlib.util.find_spec("httpx_sse").origin).parent
_package = types.ModuleType("httpx_sse")
_package.__path__ = [str(_root)]
sys.modules["httpx_sse"] = _package

from httpx_sse._decoders import SSEDecoder, SSELineDecoder  # noqa: E402

NAMES = ["data"] * 8 + ["event"] * 2 + ["id"] * 2 + ["retry"] * 2 + [
    "", "Data", "dat", "data ", " data", "x", "\ufeffdata", "da\u0000ta", "événement",
]
RETRIES = [
    "0", "12", "1500", "007", "+5", "-1", " 7", "7 ", "1_0", "\u0663", "\uff11\uff12", "", "1x",
    "9" * 19, "9" * 30, "9223372036854775807", "9223372036854775808",
]
TEXT = "abcXYZ 019:\t\u0000\u00e9\u20ac\U0001F600\ufeff,;-"
ENDS = ["\n", "\n", "\r\n", "\r"]


def value(rng):
    return "".join(rng.choice(TEXT) for _ in range(rng.randrange(0, 8)))


def line(rng):
    kind = rng.random()
    if kind < 0.12:
        return ""
    if kind < 0.18:
        return ":" + value(rng)
    name = rng.choice(NAMES)
    if rng.random() < 0.1:
        return name
    separator = rng.choice([":", ": ", ": ", ":  "])
    text = rng.choice(RETRIES) if name == "retry" else value(rng)
    return name + separator + text


def stream(rng):
    parts = []
    if rng.random() < 0.1:
        parts.append("\ufeff")
    for _ in range(rng.randrange(1, 14)):
        parts.append(line(rng))
        parts.append(rng.choice(ENDS))
        if rng.random() < 0.3:
            parts.append(rng.choice(ENDS))
    if rng.random() < 0.15:
        parts.append(line(rng))
    data = bytearray("".join(parts).encode("utf-8"))
    if rng.random() < 0.3:
        for _ in range(rng.randrange(1, 4)):
            position = rng.randrange(len(data) + 1)
            noise = [0xFF, 0xE2, 0x82, 0xC0, 0x0D, 0x0A, 0x3A, 0x20, 0x00, 0xEF]
            data[position:position] = bytes([rng.choice(noise)])
    return bytes(data)


def ascii_digits(text):
    return text != "" and all("0" <= c <= "9" for c in text)


def int_accepts(text):
    try:
        int(text)
        return True
    except ValueError:
        return False


def read(data, rng):
    text = data.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = SSELineDecoder()
    decoder = SSEDecoder()
    events = []
    block = {"lenient": False, "huge": False}

    def feed(line):
        had_data = bool(decoder._data)
        if line and not line.startswith(":"):
            name, _, field = line.partition(":")
            field = field[1:] if field.startswith(" ") else field
            if name == "retry" and int_accepts(field):
                if not ascii_digits(field):
                    block["lenient"] = True
                elif int(field) > 2**63 - 1:
                    block["huge"] = True
        event = decoder.decode(line)
        if not line:
            flags = (had_data, block["lenient"], block["huge"])
            block["lenient"] = block["huge"] = False
            if event is not None:
                events.append((event, *flags))

    offset = 0
    while offset < len(text):
        size = rng.randrange(1, 12)
        for each in lines.decode(text[offset:offset + size]):
            feed(each)
        offset += size
    for each in lines.flush():
        feed(each)
    return events


def b64(text):
    return base64.b64encode(text.encode("utf-8", errors="surrogatepass")).decode("ascii")


def main():
    output = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 24)
    with open(output, "w", encoding="ascii") as out:
        for _ in range(count):
            data = stream(rng)
            described = []
            for event, had_data, lenient, huge in read(data, rng):
                retry = "-" if event.retry is None else str(event.retry)
                flags = f"{int(had_data)},{int(lenient)},{int(huge)}"
                described.append(f"{b64(event.event)},{b64(event.data)},{b64(event.id)},{retry},{flags}")
            out.write(base64.b64encode(data).decode("ascii") + "\t" + ";".join(described) + "\n")


if __name__ == "__main__":
    main()
