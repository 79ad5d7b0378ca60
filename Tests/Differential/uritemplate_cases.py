"""Writes arguments and uritemplate's RFC 6570 expansion of each, for the differential test of
ParameterStyle's simple, label, matrix and form styles
(Tests/WebServiceKitTests/ParameterStyleDifferentialTests.swift).

    python uritemplate_cases.py OUTPUT [COUNT] [SEED]

Runs in the virtual environment of Tests/Servers/requirements-differential.txt (uritemplate,
pinned). COUNT (default 24000) cases are written, from a fixed SEED (default 6570) so that a run is
reproducible: a style (one of TEMPLATES), a parameter name (letters, digits, `_`, `.` and
percent-encoded other characters, as RFC 6570 §2.3 writes a varname) and a value: text or an
integer, a list of them, or an object (its members in order) whose texts mix unreserved, reserved,
other ASCII and non-ASCII characters, `%XX` and lone `%`, and the empty string.

One line per case, tab-separated:
    style  name(base64)  value(base64 of JSON)  expansion
style is a key of TEMPLATES; name is the parameter's name, not encoded; value is {"s": text},
{"i": integer}, {"l": [scalar, ...]}, {"o": [[name, scalar], ...]} or {"n": null}, a scalar being
{"s": text} or {"i": integer}; expansion is uritemplate's expansion of the template (ASCII: every
value is percent-encoded). After the cases, one line per excluded kind of case:
    #excluded  reason  count

Cases where the library differs from uritemplate on purpose are not written, and are counted
(see exclusion()).
"""

import base64
import json
import random
import sys
import urllib.parse

from uritemplate import URITemplate

# The style (ParameterStyle's kind and explode) -> the RFC 6570 expression it is.
TEMPLATES = {
    "simple": "{%s}",
    "simple*": "{%s*}",
    "label": "{.%s}",
    "label*": "{.%s*}",
    "matrix": "{;%s}",
    "matrix*": "{;%s*}",
    "form": "{?%s}",
    "form*": "{?%s*}",
}
PATH_STYLES = {"simple", "simple*", "label", "label*", "matrix", "matrix*"}

UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
RESERVED = ":/?#[]@!$&'()*+,;="
OTHER_ASCII = " %\"<>\\^`{|}\t\n\x00\x7f"
NON_ASCII = ["é", "ü", "日本", "Привет", "😀", "e\u0301", "\u00a0", "ß"]
PIECES = ["%41", "%2F", "%zz", "%", "..", "a b", "x=y", "a&b", "+", "%20"]


def text(rng):
    kind = rng.random()
    if kind < 0.08:
        return ""
    if kind < 0.12:
        return rng.choice([".", "..", "...", "~", "-"])
    chars = []
    for _ in range(rng.randrange(1, 9)):
        pick = rng.random()
        if pick < 0.45:
            chars.append(rng.choice(UNRESERVED))
        elif pick < 0.7:
            chars.append(rng.choice(RESERVED))
        elif pick < 0.8:
            chars.append(rng.choice(OTHER_ASCII))
        elif pick < 0.9:
            chars.append(rng.choice(NON_ASCII))
        else:
            chars.append(rng.choice(PIECES))
    return "".join(chars)


def scalar(rng):
    if rng.random() < 0.15:
        return {"i": rng.choice([0, 1, -1, 42, 100, -7, 2**31, -(2**40), 10**15])}
    return {"s": text(rng)}


def python(value):
    """The value as uritemplate takes it: an object as a list of (name, value) pairs, which it
    keeps in order (a dict it would sort), or a dict when empty."""
    if "s" in value:
        return value["s"]
    if "i" in value:
        return value["i"]
    if "l" in value:
        return [python(element) for element in value["l"]]
    if "o" in value:
        pairs = [(name, python(member)) for name, member in value["o"]]
        return pairs if pairs else {}
    return None


def argument(rng, style):
    kind = rng.random()
    if kind < 0.04 and style not in PATH_STYLES:
        # nil: the library drops the query item, uritemplate writes nothing. (In the path nil is an
        # error, which the unit tests check.)
        return {"n": None}
    if kind < 0.35:
        return scalar(rng)
    if kind < 0.7:
        return {"l": [scalar(rng) for _ in range(rng.choice([0, 1, 1, 2, 3, 4, 6]))]}
    names = []
    while len(names) < rng.choice([0, 1, 1, 2, 3, 5]):
        name = text(rng) if rng.random() < 0.9 else rng.choice(["R", "G", "B", "semi", "dot"])
        if name not in names:
            names.append(name)
    return {"o": [[name, scalar(rng)] for name in names]}


def name(rng):
    """A parameter name: the text the library is given, and the varname the template writes
    (letters, digits, `_`, a `.` between them, and other characters percent-encoded, as RFC 6570
    §2.3 writes a varname and OpenAPI 3.1.1 Appendix C asks for a name that is no varname)."""
    plain = []
    written = []
    for position in range(rng.randrange(1, 7)):
        pick = rng.random()
        if pick < 0.1 and 0 < position < 5 and plain[-1] != ".":
            plain.append(".")
            written.append(".")
        elif pick < 0.8:
            char = rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
            plain.append(char)
            written.append(char)
        else:
            char = rng.choice(["é", "❤", " ", "&", "=", "[", ";", "/", "日", "%", "+"])
            plain.append(char)
            written.append(urllib.parse.quote(char, safe=""))
    if plain[-1] == ".":
        # A varname does not end with ".".
        plain.append("x")
        written.append("x")
    return "".join(plain), "".join(written)


def exclusion(style, value, expansion):
    """Why the library writes something else than uritemplate on purpose, or None."""
    compound = "l" in value or "o" in value
    members = value.get("l") or [member for _, member in value.get("o", [])]
    if style in ("label", "label*", "matrix", "matrix*") and compound and not members:
        # OpenAPI 3.1.1's style table writes an empty list or object ("undefined") as "." and
        # ";color"; RFC 6570 writes nothing, and uritemplate ";color=" (matrix, not exploded).
        return "empty list or object in label or matrix: OpenAPI's undefined column"
    if style == "matrix*" and any(member.get("s") == "" for member in members):
        # RFC 6570 Appendix A: exploded, an empty member is the name alone (";x", the ";"
        # operator's ifemp is empty); uritemplate writes ";x=". The library follows the RFC.
        return "matrix exploded with an empty element or member: RFC 6570 writes ;x, uritemplate ;x="
    if style in ("matrix", "matrix*", "form", "form*") and value.get("i") == 0:
        # uritemplate tests a scalar's truth ("if value:"), so 0 is written as if it were "":
        # ";x" and "x=" for ";x=0" and "x=0".
        return "the integer 0 in matrix or form: uritemplate writes it as the empty string"
    if style in PATH_STYLES and expansion in (".", ".."):
        # A "." or ".." segment is removed as the URL is resolved (RFC 3986 §5.2.4): the library
        # refuses the argument rather than send another path.
        return "a path segment . or ..: the library refuses it"
    return None


def main():
    output = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 24000
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 6570)
    styles = sorted(TEMPLATES)
    excluded = {}
    written = 0
    with open(output, "w", encoding="ascii") as out:
        while written < count:
            style = styles[written % len(styles)] if rng.random() < 0.5 else rng.choice(styles)
            plain, varname = name(rng)
            value = argument(rng, style)
            expansion = URITemplate(TEMPLATES[style] % varname).expand({varname: python(value)})
            reason = exclusion(style, value, expansion)
            if reason:
                excluded[reason] = excluded.get(reason, 0) + 1
                continue
            encoded_name = base64.b64encode(plain.encode("utf-8")).decode("ascii")
            encoded_value = base64.b64encode(json.dumps(value, ensure_ascii=False).encode("utf-8")).decode("ascii")
            out.write(f"{style}\t{encoded_name}\t{encoded_value}\t{expansion}\n")
            written += 1
        for reason, number in sorted(excluded.items()):
            out.write(f"#excluded\t{reason}\t{number}\n")


if __name__ == "__main__":
    main()
