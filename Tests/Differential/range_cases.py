"""Writes `Range` field values (RFC 9110 §14.1.2, §14.2) and Werkzeug's reading of each, for the
differential test of the cache's Range parser (Tests/WebServiceKitTests/ByteRangeDifferentialTests.swift).

    python range_cases.py OUTPUT [COUNT] [SEED]

Runs in the virtual environment of Tests/Servers/requirements-differential.txt (Werkzeug, pinned).
COUNT (default 30000) values, from a fixed SEED (default 22) so that a run is reproducible: a
grammar of byte ranges (first-last, first-, -suffix; leading zeros, numbers far past 2^63, signs,
spaces and tabs, empty elements, other units, non-ASCII digits) and random mutations of them.

One line per value, tab-separated:
    value(base64)  parsed(base64)  resolutions
parsed is "-" when werkzeug.http.parse_range_header returns None, otherwise the unit, a space and
the ranges as "begin:end" pairs joined by ";" (end exclusive, empty when open; a suffix is
"-N:"). resolutions is Range.range_for_length for each of LENGTHS, joined by ";": "start:stop"
(stop exclusive) or "-".
"""

import base64
import random
import sys

from werkzeug.http import parse_range_header

LENGTHS = [0, 1, 26, 1000, 2**63 - 1]


def number(rng):
    kind = rng.random()
    if kind < 0.55:
        return str(rng.randrange(0, 2000))
    if kind < 0.65:
        return "0" * rng.randrange(1, 4) + str(rng.randrange(0, 200))
    if kind < 0.75:
        return str(rng.choice([2**63 - 1, 2**63, 2**64, 2**64 + 1, 10**19, 10**30]) + rng.randrange(-2, 3))
    if kind < 0.82:
        return "9" * rng.randrange(18, 60)
    if kind < 0.86:
        return rng.choice(["+1", "-1", "-0", "0x1", "1_0", "١", "1.0", "", " 1", "1 ", "\t2"])
    return str(rng.randrange(0, 30))


def element(rng):
    kind = rng.random()
    if kind < 0.4:
        return number(rng) + "-" + number(rng)
    if kind < 0.6:
        return number(rng) + "-"
    if kind < 0.8:
        return "-" + number(rng)
    if kind < 0.85:
        return ""
    if kind < 0.9:
        return rng.choice([" ", "\t", "-", "--", "1--0", "0--0", "0--00", "5 - 9", "1 -2", "a-b", "1-2-3"])
    return rng.choice(["0-0", "-1", "0-", "00-00"])


def unit(rng):
    if rng.random() < 0.85:
        return "bytes"
    return rng.choice(["BYTES", "Bytes", " bytes", "bytes ", "items", "by tes", "", "bytes\t", "\"bytes\""])


def value(rng):
    count = rng.choice([1, 1, 1, 1, 2, 2, 3, 5])
    separators = [rng.choice([",", ", ", " ,", ",,", ",\t"]) for _ in range(count)]
    text = "".join(element(rng) + (separators[i] if i < count - 1 else "") for i in range(count))
    equals = rng.choice(["="] * 20 + ["", "==", " = "])
    return unit(rng) + equals + text


def mutate(rng, text):
    chars = list(text)
    for _ in range(rng.randrange(1, 4)):
        op = rng.random()
        alphabet = "0123456789-,= \tbytesBX+;\"\u0661"
        if op < 0.4 and chars:
            del chars[rng.randrange(len(chars))]
        elif op < 0.8:
            chars.insert(rng.randrange(len(chars) + 1), rng.choice(alphabet))
        elif chars:
            chars[rng.randrange(len(chars))] = rng.choice(alphabet)
    return "".join(chars)


def describe(parsed):
    if parsed is None:
        return "-", "-"
    pairs = ";".join(f"{begin}:{'' if end is None else end}" for begin, end in parsed.ranges)
    resolutions = []
    for length in LENGTHS:
        resolved = parsed.range_for_length(length)
        resolutions.append("-" if resolved is None else f"{resolved[0]}:{resolved[1]}")
    return f"{parsed.units} {pairs}", ";".join(resolutions)


def main():
    output = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 30000
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 22)
    with open(output, "w", encoding="ascii") as out:
        for index in range(count):
            text = value(rng)
            if index % 3 == 2:
                text = mutate(rng, text)
            parsed, resolutions = describe(parse_range_header(text))
            encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
            out.write(f"{encoded}\t{base64.b64encode(parsed.encode()).decode('ascii')}\t{resolutions}\n")


if __name__ == "__main__":
    main()
