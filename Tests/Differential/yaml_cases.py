"""Writes YAML documents and an independent reading of each, for the differential test of the YAML
reader (Tests/WebServiceGenKitTests/YAMLDifferentialTests.swift).

    python yaml_cases.py OUTPUT [COUNT] [SEED]

Runs in the virtual environment of Tests/Servers/requirements-differential.txt (ruamel.yaml,
pinned). COUNT (default 100000) documents, from a fixed SEED (default 36) so that a run is
reproducible: block mappings and sequences (compact `- key: value`, sequences at their key's
indentation), flow collections over several lines, every scalar style (plain over several lines,
single-quoted, double-quoted with every escape of YAML 1.2 §5.7, literal and folded block scalars
with chomping and indentation indicators), the core schema's numbers, booleans and nulls next to
YAML 1.1's forms, comments, anchors and aliases (undefined, recursive, as keys), tags (`!!str`,
`!!int` on text that is not one, `!custom`, `%TAG` handles, verbatim), directives, `---` and `...`,
a BOM, CR LF line ends, explicit `?` keys, duplicate keys, second documents, and random character
mutations.

The oracle: ruamel.yaml's pure-Python scanner and parser (YAML 1.2; `YAML(typ='safe',
pure=True).parse`) cut each document into events. The composition and the core schema are done
here, from the specification, rather than by ruamel.yaml's constructor, whose "1.2" resolver departs
from YAML 1.2's core schema (it takes `0o17` and `017` as octal, `0b101`, `1_000`, timestamps, `<<`
merge keys and `=`): anchors and aliases (an undefined alias and an alias inside its own anchored
node are errors), duplicate keys (equal tags and canonical values) an error, one document only, the
explicit tags of the core schema checked against the text (`!!int x` is an error; `!!float 1` is
1.0), and §10.3.2's patterns for plain scalars without a tag.

One line per document, tab-separated: the document (base64 of its UTF-8), the node tree as JSON or
"error", the value as JSON or "error", and flags (comma-separated, maybe empty) that name what the
test's accepted differences need to know: "tab" (the document has a tab), "surrogate" (a scalar
holds a lone surrogate, from a `\\uD800` escape, which no Swift string can: the tree and value
columns are then "surrogate"), "detabbed" (see below).

The node tree: a scalar is ["s", tag, anchor, style, text], a sequence ["q", tag, anchor, [nodes]],
a mapping ["m", tag, anchor, [[key, value], ...]]; tag and anchor are null when none is written;
style is plain, single, double, literal or folded. The value: null, true, false, {"i": "digits"},
{"f": "repr"}, "text", [values] or {"o": [[key, value], ...]}, the keys being the text of scalar
keys (a collection key, or two keys with the same text, make the value "error"; so does an integer
beyond a double's range).

Where ruamel.yaml refuses a document that has a tab (libyaml's ports refuse tabs as separation in
block context, which YAML 1.2 allows), the document with each tab that follows other characters on
its line made a space is read too; when that is accepted, the line carries its reading instead and
the flag "detabbed". (Tabs in a line's leading white space are kept: replaced, they would indent.)
"""

import base64
import json
import math
import multiprocessing
import os
import random
import re
import sys

from ruamel.yaml import YAML
from ruamel.yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)

CORE = "tag:yaml.org,2002:"
STR, NULL, BOOL, INT, FLOAT, SEQ, MAP = (CORE + name for name in ("str", "null", "bool", "int", "float", "seq", "map"))

# §10.3.2, the core schema.
NULL_RE = re.compile(r"null|Null|NULL|~|")
BOOL_RE = re.compile(r"true|True|TRUE|false|False|FALSE")
INT10_RE = re.compile(r"[-+]?[0-9]+")
INT8_RE = re.compile(r"0o[0-7]+")
INT16_RE = re.compile(r"0x[0-9a-fA-F]+")
FLOAT_RE = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
INF_RE = re.compile(r"[-+]?\.(inf|Inf|INF)")
NAN_RE = re.compile(r"\.(nan|NaN|NAN)")

STYLES = {None: "plain", "'": "single", '"': "double", "|": "literal", ">": "folded"}


class Refused(Exception):
    pass


# ---------------------------------------------------------------- the oracle


def implicit_tag(text):
    if NULL_RE.fullmatch(text):
        return NULL
    if BOOL_RE.fullmatch(text):
        return BOOL
    if INT10_RE.fullmatch(text) or INT8_RE.fullmatch(text) or INT16_RE.fullmatch(text):
        return INT
    if FLOAT_RE.fullmatch(text) or INF_RE.fullmatch(text) or NAN_RE.fullmatch(text):
        return FLOAT
    return STR


def resolved_tag(node):
    kind, tag = node[0], node[1]
    if kind == "s":
        if tag is None:
            return implicit_tag(node[4]) if node[3] == "plain" else STR
        return STR if tag == "!" else tag
    if tag is None or tag == "!":
        return SEQ if kind == "q" else MAP
    return tag


def integer(text):
    if INT8_RE.fullmatch(text):
        return int(text[2:], 8), "o"
    if INT16_RE.fullmatch(text):
        return int(text[2:], 16), "x"
    if INT10_RE.fullmatch(text):
        return int(text, 10), "d"
    return None


def scalar_value(node):
    """("null",) ("bool", b) ("int", n, base) ("float", x) ("str", text); Refused when the text does
    not fit an explicit tag of the core schema."""
    text, tag = node[4], resolved_tag(node)
    if tag == NULL:
        if NULL_RE.fullmatch(text):
            return ("null",)
    elif tag == BOOL:
        if BOOL_RE.fullmatch(text):
            return ("bool", text.lower() == "true")
    elif tag == INT:
        found = integer(text)
        if found is not None:
            return ("int", found[0], found[1])
    elif tag == FLOAT:
        if FLOAT_RE.fullmatch(text):
            return ("float", float(text))
        if INF_RE.fullmatch(text):
            return ("float", -math.inf if text.startswith("-") else math.inf)
        if NAN_RE.fullmatch(text):
            return ("float", math.nan)
        found = integer(text)
        if found is not None:
            return ("float", float(found[0]))
    elif tag in (SEQ, MAP):
        pass
    else:
        return ("str", text)
    raise Refused("the text does not fit the tag")


def identity(node):
    """Equal for two nodes exactly when they are equal keys: same tag, same canonical value."""
    if node[0] == "s":
        value = scalar_value(node)
        if value[0] == "int":
            number, base = value[1], value[2]
            if -(2**63) <= number < 2**63:
                return ("i", number)
            digits = node[4].lstrip("+-")
            digits = digits[2:] if base != "d" else digits
            digits = digits.lower().lstrip("0")
            sign = "-" if node[4].startswith("-") else ""
            return ("I", sign + base + digits)
        if value[0] == "float":
            x = value[1]
            return ("f", "nan" if math.isnan(x) else (0.0 if x == 0 else x))
        if value[0] == "str":
            tag = resolved_tag(node)
            return ("s", value[1]) if tag == STR else ("t", tag, value[1])
        return value
    if node[0] == "q":
        return ("q", resolved_tag(node), tuple(identity(child) for child in node[3]))
    return ("m", resolved_tag(node), tuple(sorted(repr((identity(k), identity(v))) for k, v in node[3])))


def check_collection_tag(node):
    tag = resolved_tag(node)
    if tag in (NULL, BOOL, INT, FLOAT, STR) or (node[0] == "q" and tag == MAP) or (node[0] == "m" and tag == SEQ):
        raise Refused("wrong tag for a collection")


def compose(events):
    """The one document's root node, built as the Swift reader does."""
    events = iter(events)
    assert isinstance(next(events), StreamStartEvent)
    event = next(events)
    if isinstance(event, StreamEndEvent):
        return ["s", None, None, "plain", ""]
    assert isinstance(event, DocumentStartEvent)
    anchors = {}
    stack = []  # [node, pending key, key identities]
    root = None
    while root is None:
        event = next(events)
        if isinstance(event, AliasEvent):
            if event.anchor not in anchors:
                raise Refused("undefined alias")
            node = anchors[event.anchor]
            if node is None:
                raise Refused("recursive alias")
        elif isinstance(event, ScalarEvent):
            tag = None if event.tag is None else str(event.tag)
            node = ["s", tag, event.anchor, STYLES[event.style], event.value]
            if tag is not None:
                scalar_value(node)
            if event.anchor is not None:
                anchors[event.anchor] = node
        elif isinstance(event, (SequenceStartEvent, MappingStartEvent)):
            tag = None if event.tag is None else str(event.tag)
            kind = "q" if isinstance(event, SequenceStartEvent) else "m"
            node = [kind, tag, event.anchor, []]
            if event.anchor is not None:
                anchors[event.anchor] = None
            stack.append([node, None, set()])
            continue
        elif isinstance(event, (SequenceEndEvent, MappingEndEvent)):
            node = stack.pop()[0]
            check_collection_tag(node)
            if node[2] is not None and anchors.get(node[2], 0) is None:
                anchors[node[2]] = node
        else:
            raise AssertionError(f"unexpected event {event}")
        if not stack:
            root = node
            break
        top = stack[-1]
        if top[0][0] == "q":
            top[0][3].append(node)
        elif top[1] is None:
            key = identity(node)
            if key in top[2]:
                raise Refused("duplicate key")
            top[2].add(key)
            top[1] = node
        else:
            top[0][3].append((top[1], node))
            top[1] = None
    assert isinstance(next(events), DocumentEndEvent)
    if not isinstance(next(events), StreamEndEvent):
        raise Refused("a second document")
    return root


def tree_json(node):
    if node[0] == "s":
        return ["s", node[1], node[2], node[3], node[4]]
    if node[0] == "q":
        return ["q", node[1], node[2], [tree_json(child) for child in node[3]]]
    return ["m", node[1], node[2], [[tree_json(k), tree_json(v)] for k, v in node[3]]]


def value_json(node):
    if node[0] == "s":
        value = scalar_value(node)
        if value[0] == "null":
            return None
        if value[0] == "bool":
            return value[1]
        if value[0] == "int":
            if not -(2**63) <= value[1] < 2**63:
                float(value[1])  # OverflowError beyond a double's range
            return {"i": str(value[1])}
        if value[0] == "float":
            return {"f": repr(value[1])}
        return value[1]
    if node[0] == "q":
        return [value_json(child) for child in node[3]]
    members, seen = [], set()
    for key, value in node[3]:
        if key[0] != "s" or key[4] in seen:
            raise Refused("no JSON key")
        seen.add(key[4])
        members.append([key[4], value_json(value)])
    return {"o": members}


def has_surrogate(node):
    if node[0] == "s":
        return any(0xD800 <= ord(c) <= 0xDFFF for c in node[4])
    if node[0] == "q":
        return any(has_surrogate(child) for child in node[3])
    return any(has_surrogate(k) or has_surrogate(v) for k, v in node[3])


YAML_PARSER = YAML(typ="safe", pure=True)


def read(data):
    """(tree JSON or "error", value JSON or "error", surrogate) for UTF-8 `data`."""
    try:
        root = compose(list(YAML_PARSER.parse(data)))
    except Exception:  # ruamel.yaml's errors, and chr() of an escape beyond U+10FFFF
        return "error", "error", False
    if has_surrogate(root):
        return "surrogate", "surrogate", True
    tree = json.dumps(tree_json(root), ensure_ascii=True)
    try:
        value = json.dumps(value_json(root), ensure_ascii=True)
    except (Refused, OverflowError):
        value = "error"
    return tree, value, has_surrogate(root)


# ---------------------------------------------------------------- the documents

PLAIN_WORDS = [
    "a", "b", "key", "name", "value", "get", "x1", "foo bar", "/pets/{id}", "application/json", "$ref",
    "#/components/schemas/Pet", "café", "日本語", "😀", "a:b", "a#b", "-x", "x-y", "http://x.org/a?b=c",
    "it's", 'say "hi"', "a\\b", "true", "True", "TRUE", "false", "FALSE", "tRue", "null", "Null", "NULL", "~",
    "nULL", "yes", "no", "on", "off", "Yes", "y", "n", "0", "00", "012", "0777", "-1", "+1", "-0", "1_000",
    "0o17", "0o8", "0O17", "0x1F", "0xff", "0XFF", "0x", "0b101", "1.5", "-2.5e3", "1e5", "1E+05", "1e-5",
    ".5", "5.", "+.5", "-.5", "1.e3", ".e3", "1e", ".", "+", "-.inf", ".Inf", "+.INF", ".NaN", ".nan",
    "-.nan", ".NAN", "1:30", "2001-12-14", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "0x7fffffffffffffff", "0x8000000000000000",
    "0o777777777777777777777", "18446744073709551615", "1" + "0" * 30, "0x" + "f" * 40, "1" + "0" * 400,
    "1e400", "-1e400", "4.9e-324", "1e-400", "<<", "=", "?x", ":x", "x:", "...x", "---x",
]
FLOW_SAFE = [w for w in PLAIN_WORDS if not any(c in w for c in ",[]{}") and not w.endswith(":")]
KEYS = ["a", "b", "c", "name", "type", "id", "200", "404", "x-ext", "$ref", "description", "1", "01", "0x1",
        "1.0", "true", "null", "~", "<<", "key with space", "ключ"]
TEXT_CHARS = "abcxyz ABC019 :#,[]{}&*!|>%@`-?é€😀\\\"'\t"
ESCAPES = ["\\n", "\\t", "\\\\", '\\"', "\\/", "\\0", "\\a", "\\b", "\\e", "\\f", "\\r", "\\v", "\\ ", "\\N",
           "\\_", "\\L", "\\P", "\\x41", "\\xe9", "\\u00e9", "\\u263A", "\\U0001F600", "\\\t", "\\x0a"]
BAD_ESCAPES = ["\\q", "\\x4", "\\u12", "\\uD800", "\\U00110000", "\\'", "\\U0000002G"]
TAGS = ["!!str", "!!int", "!!float", "!!bool", "!!null", "!custom", "!e!thing", "!<tag:yaml.org,2002:str>",
        "!<!local>", "!", "!!binary", "!!map", "!!seq", "!undefined!x", "!a%20b"]


class Writer:
    def __init__(self, rng):
        self.rng = rng
        self.anchors = []
        self.anchor_count = 0
        self.uses_tag_handle = False

    def chance(self, p):
        return self.rng.random() < p

    def properties(self, allow_tag=True):
        parts = []
        if self.chance(0.08):
            self.anchor_count += 1
            name = self.rng.choice(["a", "anchor", "x-1", "é"]) + str(self.anchor_count)
            parts.append("&" + name)
            self.anchors.append(name)
        if allow_tag and self.chance(0.07):
            tag = self.rng.choice(TAGS)
            if tag.startswith("!e!"):
                self.uses_tag_handle = True
            parts.append(tag)
        if self.chance(0.3):
            parts.reverse()
        return " ".join(parts) + " " if parts else ""

    def alias(self):
        if self.anchors and self.chance(0.98):
            return "*" + self.rng.choice(self.anchors)
        return "*undefined" if self.chance(0.2) else self.rng.choice(FLOW_SAFE)

    def text(self, allow_breaks, indent):
        pieces = []
        for _ in range(self.rng.randrange(0, 12)):
            r = self.rng.random()
            if r < 0.1 and allow_breaks:
                pieces.append("\n" * self.rng.choice([1, 1, 2]) + " " * (indent + self.rng.randrange(0, 3)))
            else:
                pieces.append(self.rng.choice(TEXT_CHARS))
        return "".join(pieces)

    def single_quoted(self, indent, allow_breaks=True):
        return "'" + self.text(allow_breaks, indent).replace("'", "''") + "'"

    def double_quoted(self, indent, allow_breaks=True):
        pieces = []
        for _ in range(self.rng.randrange(0, 10)):
            r = self.rng.random()
            if not allow_breaks and 0.36 <= r < 0.52:
                continue
            if r < 0.35:
                pieces.append(self.rng.choice(ESCAPES))
            elif r < 0.36:
                pieces.append(self.rng.choice(BAD_ESCAPES))
            elif r < 0.45:
                pieces.append("\\\n" + " " * (indent + self.rng.randrange(0, 3)))
            elif r < 0.52:
                pieces.append("\n" * self.rng.choice([1, 2]) + " " * (indent + self.rng.randrange(0, 3)))
            else:
                pieces.append(self.rng.choice(TEXT_CHARS.replace("\\", "").replace('"', "")))
        return '"' + "".join(pieces) + '"'

    def plain(self, flow, indent):
        word = self.rng.choice(FLOW_SAFE if flow else PLAIN_WORDS)
        if not flow and self.chance(0.08):
            # More lines, indented more than the collection.
            for _ in range(self.rng.randrange(1, 3)):
                word += "\n" * self.rng.choice([1, 1, 2]) + " " * (indent + self.rng.randrange(0, 2)) + self.rng.choice(
                    ["more", "text here", "x", "- y", "z #c"])
        return word

    def flow_scalar(self, flow, indent):
        r = self.rng.random()
        if r < 0.6:
            return self.plain(flow, indent)
        if r < 0.8:
            return self.single_quoted(indent)
        return self.double_quoted(indent)

    def block_scalar(self, indent):
        """A block scalar's header and lines, for a node of a collection at `indent`."""
        header = self.rng.choice("|>")
        chomp = self.rng.choice(["", "", "-", "+"])
        explicit = self.chance(0.2)
        step = self.rng.choice([1, 2, 2, 4])
        if explicit:
            indicator = str(step)
            header += indicator + chomp if self.chance(0.5) else chomp + indicator
        else:
            header += chomp
        if self.chance(0.15):
            header += " # comment"
        if indent >= 0:
            base = indent + step
        else:
            base = step if explicit else self.rng.choice([0, 1, 2])
        lines = []
        for _ in range(self.rng.randrange(0, 5)):
            r = self.rng.random()
            if r < 0.15:
                lines.append("")
            elif r < 0.25:
                lines.append(" " * (base + self.rng.randrange(1, 3)) + "indented more")
            elif r < 0.3:
                lines.append(" " * base + "\ttab")
            else:
                text = self.rng.choice(["line", "some text", "# not a comment", "a: b", "- x", '"q"'])
                lines.append(" " * base + text)
        if self.chance(0.3):
            lines.append("")
        return header + "".join("\n" + line for line in lines)

    def flow_collection(self, depth, indent):
        multi = self.chance(0.3)
        if self.chance(0.5):
            items = [self.flow_node(depth + 1, indent) for _ in range(self.rng.randrange(0, 4))]
            opening, closing = "[", "]"
        else:
            items = []
            for _ in range(self.rng.randrange(0, 4)):
                r = self.rng.random()
                key = self.flow_node(depth + 1, indent) if r < 0.15 else self.rng.choice(KEYS)
                if r > 0.92:
                    items.append(key)  # a key without a value
                elif r > 0.85:
                    items.append("? " + key + " : " + self.flow_node(depth + 1, indent))
                else:
                    items.append(key + ": " + self.flow_node(depth + 1, indent))
            opening, closing = "{", "}"
        separator = ",\n" + " " * (indent + 1) if multi else self.rng.choice([", ", ",", " , "])
        trailing = "," if items and self.chance(0.1) else ""
        return opening + separator.join(items) + trailing + closing

    def flow_node(self, depth, indent):
        props = self.properties()
        r = self.rng.random()
        if r < 0.07:
            return self.alias()
        if depth < 4 and r < 0.25:
            return props + self.flow_collection(depth, indent)
        return props + self.flow_scalar(True, indent)

    def value(self, depth, indent, in_sequence=False):
        """What follows a mapping's ':' or a sequence's '-' of a collection at `indent`."""
        r = self.rng.random()
        if r < 0.05:
            return ""
        if r < 0.1:
            return " " + self.alias()
        props = self.properties()
        if depth < 4 and r < 0.3:
            child = indent + self.rng.choice([1, 2, 2, 4])
            if props and self.chance(0.5):
                return " " + props.rstrip() + "\n" + self.block_mapping(depth + 1, child)
            if in_sequence and self.chance(0.5):
                # Compact: the first key on the line of '-'.
                return " " + props + self.block_mapping(depth + 1, indent + 2)[indent + 2:]
            return (" " + props.rstrip() if props else "") + "\n" + self.block_mapping(depth + 1, child)
        if depth < 4 and r < 0.45:
            if in_sequence and self.chance(0.5):
                return " " + props + self.block_sequence(depth + 1, indent + 2)[indent + 2:]
            child = indent if not in_sequence and self.chance(0.5) else indent + self.rng.choice([1, 2])
            return (" " + props.rstrip() if props else "") + "\n" + self.block_sequence(depth + 1, child)
        if depth < 5 and r < 0.55:
            return " " + props + self.flow_collection(depth, indent + 1)
        if r < 0.65:
            return " " + props + self.block_scalar(indent)
        return " " + props + self.flow_scalar(False, indent + 1)

    def comment_line(self, indent):
        return " " * max(0, indent + self.rng.randrange(-1, 3)) + "# " + self.rng.choice(["note", "", "key: x"])

    def block_mapping(self, depth, indent):
        lines = []
        used = []
        for _ in range(self.rng.randrange(1, 5)):
            if self.chance(0.05):
                lines.append(self.comment_line(indent))
            r = self.rng.random()
            if r < 0.03 and used:
                key = self.rng.choice(used)  # a duplicate
            elif r < 0.1:
                key = self.single_quoted(indent + 1, allow_breaks=False)
            elif r < 0.14:
                key = self.double_quoted(indent + 1, allow_breaks=False)
            elif r < 0.17:
                key = self.alias() + " "
            elif r < 0.2:
                key = self.flow_collection(depth + 1, indent + 1)
            elif r < 0.22:
                key = ""
            else:
                key = self.properties(allow_tag=self.chance(0.3)) + self.rng.choice(KEYS)
            used.append(key)
            if self.chance(0.05):
                # An explicit key.
                lines.append(" " * indent + "? " + key + "\n" + " " * indent + ":" + self.value(depth, indent))
                continue
            line = " " * indent + key + ":" + self.value(depth, indent)
            if self.chance(0.08):
                line += " # trailing"
            lines.append(line)
        return "\n".join(lines)

    def block_sequence(self, depth, indent):
        lines = []
        for _ in range(self.rng.randrange(1, 5)):
            if self.chance(0.05):
                lines.append(self.comment_line(indent))
            lines.append(" " * indent + "-" + self.value(depth, indent, in_sequence=True))
        return "\n".join(lines)

    def document(self):
        r = self.rng.random()
        if r < 0.55:
            body = self.block_mapping(0, 0)
        elif r < 0.75:
            body = self.block_sequence(0, 0)
        elif r < 0.85:
            body = self.properties() + self.flow_collection(0, 0)
        elif r < 0.93:
            body = self.properties() + self.flow_scalar(False, 0)
        elif r < 0.97:
            body = self.properties() + self.block_scalar(-1)
        else:
            body = ""
        head = ""
        if self.chance(0.05):
            head += "%YAML 1.2\n"
        if self.uses_tag_handle or self.chance(0.03):
            head += "%TAG !e! tag:example.com,2000:\n"
        if head or self.chance(0.15):
            head += "---" + (" " if body and not body.startswith("\n") and self.chance(0.3) and r >= 0.75 else "\n")
        text = head + body
        if self.chance(0.1):
            text += "\n..."
        if self.chance(0.03):
            text += "\n---\n" + self.rng.choice(["", "b", "- x"])
        if self.chance(0.1):
            text += "\n# the end"
        if self.chance(0.7):
            text += "\n"
        if self.chance(0.03):
            text = "\ufeff" + text
        if self.chance(0.05):
            text = text.replace("\n", "\r\n")
        return text


NOISE = [":", "-", " ", "\n", "#", '"', "'", "[", "]", "{", "}", ",", "&", "*", "!", "|", ">", "\t", "?", "%", "@",
         "a", "0", "\\", ".", "\ufeff"]


def mutate(rng, text):
    chars = list(text)
    for _ in range(rng.randrange(1, 4)):
        position = rng.randrange(len(chars) + 1)
        r = rng.random()
        if r < 0.4 or not chars:
            chars.insert(position, rng.choice(NOISE))
        elif r < 0.7:
            del chars[min(position, len(chars) - 1)]
        else:
            chars[min(position, len(chars) - 1)] = rng.choice(NOISE)
    return "".join(chars)


def detab(text):
    """`text` with each tab that follows a character other than a space or a tab on its line made a space."""
    return re.sub(r"(?m)(?<=[^\s\ufeff])([ \t]*)\t", lambda m: m.group(0).replace("\t", " "), text)


def chunk(arguments):
    """The lines for documents `start` up to `end`, each from its own generator seeded by `seed` and
    its number, so that the file is the same however the work is split."""
    seed, start, end = arguments
    lines = []
    for number in range(start, end):
        rng = random.Random(seed * 1_000_003 + number)
        text = Writer(rng).document()
        if rng.random() < 0.2:
            text = mutate(rng, text)
        data = text.encode("utf-8", errors="surrogatepass")
        tree, value, surrogate = read(data)
        flags = []
        if "\t" in text:
            flags.append("tab")
            if tree == "error":
                detabbed = read(detab(text).encode("utf-8", errors="surrogatepass"))
                if detabbed[0] != "error":
                    tree, value, surrogate = detabbed
                    flags.append("detabbed")
        if surrogate:
            flags.append("surrogate")
        document = base64.b64encode(data).decode("ascii")
        lines.append(document + "\t" + tree + "\t" + value + "\t" + ",".join(flags) + "\n")
    return "".join(lines)


def main():
    output = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 36
    step = 2000
    work = [(seed, start, min(count, start + step)) for start in range(0, count, step)]
    with open(output, "w", encoding="ascii") as out, multiprocessing.Pool(os.cpu_count() or 1) as pool:
        for lines in pool.imap(chunk, work):
            out.write(lines)


if __name__ == "__main__":
    main()
