"""Writes HTTP/1.1 responses and h11's verdict on each, for the differential test of
HTTP1ResponseParser (Tests/WebServiceKitTests/HTTP1DifferentialTests.swift).

    python http1_cases.py OUTPUT [COUNT] [SEED]

Runs in the virtual environment of Tests/Servers/requirements-differential.txt (h11, pinned).
COUNT (default 100000) responses, from a fixed SEED (default 19) so that a run is reproducible:
valid responses, mutations of them, and a grammar of RFC 9112 edge cases (signs, spaces, empty and
repeated lengths, transfer codings, obs-fold, bare LF, 1xx, 204/304 with bodies, HEAD).

One line per response, tab-separated:
    class  method  response(base64)  verdict  status  reusable  interim  body(base64)  fields  note
verdict is "ok" or "error"; for an error, the fields after it are "-" and note is h11's message.
interim is the 1xx status codes before the final response, comma-separated ("-" for none);
fields are name:value pairs, each part in base64, comma-separated ("-" for none); reusable is 1 when
the connection could carry another request (h11's states are DONE and nothing follows).
"""

import base64
import random
import sys

import h11

b64 = lambda data: base64.b64encode(bytes(data)).decode("ascii")


def verdict(method, data):
    """h11's reading of `data` as the response to a `method` request, then the end of the
    connection if the response is not complete by then."""
    conn = h11.Connection(h11.CLIENT, max_incomplete_event_size=1 << 20)
    conn.send(h11.Request(method=method, target="/", headers=[("Host", "example.com")]))
    conn.send(h11.EndOfMessage())
    conn.receive_data(data)
    interim, head, body, closed = [], None, bytearray(), False
    try:
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                conn.receive_data(b"")
                closed = True
            elif type(event) is h11.InformationalResponse:
                interim.append(event.status_code)
            elif type(event) is h11.Response:
                head = event
            elif type(event) is h11.Data:
                body += event.data
            elif type(event) is h11.EndOfMessage:
                break
            else:
                raise h11.RemoteProtocolError("unexpected %r" % (event,))
    except h11.RemoteProtocolError as error:
        return ("error", str(error))
    reusable = (
        not closed
        and conn.their_state is h11.DONE
        and conn.our_state is h11.DONE
        and not conn.trailing_data[0]
    )
    fields = ",".join(b64(name) + ":" + b64(value) for name, value in head.headers.raw_items())
    return ("ok", head.status_code, int(reusable), ",".join(map(str, interim)) or "-", b64(body), fields or "-")


# Valid responses ----------------------------------------------------------------------------

STATUSES = [200, 201, 202, 203, 206, 226, 299, 300, 301, 302, 303, 307, 308, 400, 401, 403, 404, 410,
            418, 429, 500, 502, 503, 599, 204, 304, 205]
REASONS = [b"OK", b"", b"Whatever", b"Not Found", b"r\xc3\xa9sum\xc3\xa9", b"a\tb", b"  spaced  "]
NAMES = [b"Content-Type", b"X-Request-Id", b"Cache-Control", b"ETag", b"Set-Cookie", b"Vary", b"Date",
         b"Server", b"x-lower", b"X-UPPER", b"Link", b"!#$%&'*+-.^_`|~"]
VALUE_BYTES = b"abcxyzABC0123456789 \t;=,/\"'()<>@[]{}?-._~!#$%&*+^`|" + bytes(range(0x80, 0x84))
INTERIM = [100, 102, 103]


def value(rng):
    text = bytes(rng.choice(VALUE_BYTES) for _ in range(rng.randrange(0, 24)))
    return text.strip(b" \t")


def body_bytes(rng):
    size = rng.choice([0, 1, 2, 5, 16, 100, rng.randrange(0, 3000)])
    return bytes(rng.randrange(256) for _ in range(size)) if rng.random() < 0.3 else bytes(
        rng.choice(b"abcdefghij\r\n0123456789;") for _ in range(size))


def chunked(rng, body, nl=b"\r\n"):
    out, index = bytearray(), 0
    while index < len(body):
        size = rng.randrange(1, max(2, len(body) - index + 1))
        size = min(size, len(body) - index)
        hexed = ("%x" % size) if rng.random() < 0.7 else ("%X" % size)
        out += b"0" * rng.choice([0, 0, 0, 1, 3]) + hexed.encode()
        if rng.random() < 0.2:
            out += rng.choice([b";a", b";a=b", b" ;x=\"y z\"", b";n=v;m", b"; k = v"])
        out += b"\r\n" + body[index:index + size] + b"\r\n"
        index += size
    out += b"0" + (b";end" if rng.random() < 0.1 else b"") + b"\r\n"
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        out += rng.choice([b"X-Trailer", b"Server-Timing", b"X-Sum"]) + b": " + value(rng) + nl
    return out + nl


def valid(rng):
    method = "HEAD" if rng.random() < 0.1 else "GET"
    nl = b"\r\n" if rng.random() < 0.9 else b"\n"
    version = b"HTTP/1.1" if rng.random() < 0.85 else b"HTTP/1.0"
    status = rng.choice(STATUSES)
    out = bytearray()
    for code in rng.sample(INTERIM, rng.choice([0, 0, 0, 0, 1, 2])):
        out += b"HTTP/1.1 %d Interim" % code + nl
        if rng.random() < 0.5:
            out += b"Link: </style.css>; rel=preload" + nl
        out += nl
    reason = rng.choice(REASONS)
    out += version + b" %d" % status + ((b" " + reason) if reason or rng.random() < 0.5 else b"") + nl
    for _ in range(rng.randrange(0, 6)):
        out += rng.choice(NAMES) + b":" + rng.choice([b"", b" ", b"  ", b"\t"]) + value(rng) + rng.choice(
            [b"", b"", b" ", b"\t"]) + nl
    if rng.random() < 0.15:
        out += b"Connection: " + rng.choice([b"close", b"keep-alive", b"Keep-Alive, Close", b"upgrade"]) + nl
    body = body_bytes(rng)
    framing = rng.choice(["length", "length", "chunked", "chunked", "close"])
    if version == b"HTTP/1.0" and framing == "chunked":
        framing = "length"
    bodiless = method == "HEAD" or status in (204, 304)
    if framing == "length":
        out += b"Content-Length: %d" % len(body) + nl
        out += nl
        if not bodiless:
            out += body
    elif framing == "chunked":
        out += b"Transfer-Encoding: " + rng.choice([b"chunked", b"chunked", b"Chunked"]) + nl + nl
        if not bodiless:
            out += chunked(rng, body, nl)
    else:
        out += nl
        if not bodiless:
            out += body
    return method, bytes(out)


# Mutations ----------------------------------------------------------------------------------

INTERESTING = [b"\r", b"\n", b"\r\n", b" ", b"\t", b"\x00", b":", b";", b",", b"-", b"+", b"\"", b"\x7f",
               b"\x80", b"\xff", b"0", b"f", b"x", b"\x0b", b"\x0c", b"\x01", b"=", b"\\"]


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if not data:
            data += rng.choice(INTERESTING)
            continue
        at = rng.randrange(len(data))
        kind = rng.randrange(8)
        if kind == 0:
            data[at] = rng.randrange(256)
        elif kind == 1:
            data[at:at] = rng.choice(INTERESTING)
        elif kind == 2:
            del data[at:at + rng.choice([1, 1, 2, 4])]
        elif kind == 3:
            end = min(len(data), at + rng.randrange(1, 16))
            data[at:at] = data[at:end]
        elif kind == 4:
            del data[at:]
        elif kind == 5:
            data = data.replace(b"\r\n", b"\n", rng.choice([1, 2, 100]))
        elif kind == 6:
            line = data.rfind(b"\n", 0, at)
            data[line + 1:line + 1] = rng.choice([b" ", b"\t", b"X: y\r\n", b"Content-Length: 3\r\n",
                                                  b"Transfer-Encoding: chunked\r\n", b"Connection: close\r\n"])
        else:
            data[at] = data[at] ^ (1 << rng.randrange(8))
    return bytes(data)


# RFC 9112 edge cases ------------------------------------------------------------------------

def grammar():
    """Every combination of a few framing rules' edge values, each once."""
    cases = []
    ok = b"HTTP/1.1 200 OK\r\n"
    te = b"Transfer-Encoding: chunked\r\n\r\n"
    # §7.1: chunk-size = 1*HEXDIG; §7.1.1 chunk extensions.
    for size in [b"5", b"05", b"00005", b"-5", b"+5", b"-0", b"+0", b" 5", b"5 ", b"5\t", b"0x5", b"5\x00", b"",
                 b"g", b"5;", b"5;a", b"5 ;a", b"5\t;a=b", b"5;a=", b"5;=b", b"5;a b", b"5;a=b ", b"5;a=\"x\"",
                 b"5;a=\"x", b"5;a=\"\\\"\"", b"5;a=b;c", b"5;a=b\rc", b"5;\xc3\xa9", b"5\r", b"0000000000000000000005",
                 b"7fffffffffffffff", b"8000000000000000", b"ffffffffffffffffffff", b"5;a=\x01"]:
        for tail in [b"hello\r\n0\r\n\r\n", b"hello\r\n0\r\nX: 1\r\n\r\n", b"hello\n0\r\n\r\n", b"helloXY0\r\n\r\n"]:
            for method in ["GET", "HEAD"]:
                cases.append(("grammar-chunk-size", method, ok + te + size + b"\r\n" + tail))
        cases.append(("grammar-chunk-size", "GET", ok + te + size + b"\n" + b"hello\r\n0\r\n\r\n"))
    for last in [b"0\r\n\r\n", b"0\n\n", b"0\r\n\n", b"00\r\n\r\n", b"0;x\r\n\r\n", b"0 \r\n\r\n", b"-0\r\n\r\n",
                 b"0\r\nX: 1\nY: 2\r\n\r\n", b"0\r\nX: a\r\n b\r\n\r\n", b"0\r\n X: 1\r\n\r\n", b"0\r\nX : 1\r\n\r\n",
                 b"0\r\nX: a\x00b\r\n\r\n", b"0\r\nX: a\x01b\r\n\r\n", b"0\r\nContent-Length: x\r\n\r\n",
                 b"0\r\nX: 1\r\n", b"0\r\n", b"0\r\n\r\nextra", b"0\r\nTransfer-Encoding: gzip\r\n\r\n"]:
        cases.append(("grammar-last-chunk", "GET", ok + te + b"2\r\nok\r\n" + last))
    # §6.3 item 5, RFC 9110 §8.6: Content-Length.
    for length in [b"", b",", b" ", b"5", b"05", b"5,5", b"5, 5", b"5 ,5", b"5,,5", b",5", b"5,", b" , 5", b"+5",
                   b"-5", b"5 5", b"0x5", b"5.0", b"\xd9\xa5", b"5, 6", b"99999999999999999999", b"00000000000000000000005",
                   b"9223372036854775807", b"9223372036854775808", b"4", b"6", b"0"]:
        for status, method in [(200, "GET"), (204, "GET"), (304, "GET"), (200, "HEAD"), (100, "GET")]:
            if status == 100:
                head = b"HTTP/1.1 100 Continue\r\nContent-Length: " + length + b"\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"
                cases.append(("grammar-content-length", method, head + b"hello"))
                continue
            head = b"HTTP/1.1 %d X\r\nContent-Length: " % status + length + b"\r\n\r\n"
            cases.append(("grammar-content-length", method, head + b"hello"))
            cases.append(("grammar-content-length", method, head))
        for other in [b"5", b"05", b"6", b"5, 5"]:
            cases.append(("grammar-content-length", "GET",
                          ok + b"Content-Length: " + length + b"\r\nContent-Length: " + other + b"\r\n\r\nhello"))
    # §6.1, §6.3 items 3 and 4: transfer codings.
    for coding in [b"chunked", b"Chunked", b"CHUNKED", b"chunked ", b"gzip, chunked", b"chunked, gzip", b"foo",
                   b"identity", b"chunked, chunked", b"chunked;q=1", b"", b",", b" , ", b"chunked,", b", chunked",
                   b"chunked , ", b"gzip", b"deflate, chunked", b"\"chunked\"", b"chunked\x0b", b"chunk ed",
                   b"chunked\xc2\xa0", b"\xc2\xa0chunked", b"chun\xe2\x84\xaaed", b"chunked\x00"]:
        for version in [b"HTTP/1.1", b"HTTP/1.0"]:
            for status, method in [(200, "GET"), (204, "GET"), (304, "GET"), (200, "HEAD"), (103, "GET")]:
                for length in [None, b"5", b"100"]:
                    fields = b"Transfer-Encoding: " + coding + b"\r\n"
                    if length is not None:
                        fields += b"Content-Length: " + length + b"\r\n"
                    if status == 103:
                        head = b"HTTP/1.1 103 Early\r\n" + fields + b"\r\n" + version + b" 200 OK\r\n" + te
                    else:
                        head = version + b" %d X\r\n" % status + fields + b"\r\n"
                    cases.append(("grammar-transfer-coding", method, head + b"5\r\nhello\r\n0\r\n\r\n"))
        cases.append(("grammar-transfer-coding", "GET",
                      ok + b"Transfer-Encoding: " + coding + b"\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"))
    # §5.2 obs-fold, §2.2 bare LF and CR.
    for fields in [b"X: a\r\n b\r\n", b"X: a \t\r\n\t b \r\n", b"X:\r\n \r\n", b" X: a\r\n", b"X: a\r\n\r\n b\r\n",
                   b"X: a\n b\n", b"X: a\r\n b\r\n c\r\n", b"Content-Length: 5\r\n 5\r\n", b"Connection: keep-alive\r\n close\r\n",
                   b"Transfer-Encoding: gzip\r\n ,chunked\r\n", b"X: a\rb\r\n", b"X: a\r\r\n", b"X\r\n", b"X : a\r\n",
                   b"X\t: a\r\n", b": a\r\n", b"X\x00: a\r\n", b"\xc3\x9c: a\r\n", b"X: a\x00\r\n", b"X: a\x01\r\n",
                   b"X: a\x7f\r\n", b"X: a\x0bb\r\n", b"X: a\x0cb\r\n", b"X: \xff\xfe\r\n", b"Set-Cookie: a=b\rc\r\n",
                   b"Set-Cookie: a=\x00\r\n", b"X:a\r\n", b"X: a b\r\n", b"X: \"a\r\n"]:
        for nl in [b"\r\n", b"\n"]:
            text = ok.replace(b"\r\n", nl) + fields.replace(b"\r\n", nl) + b"Content-Length: 2" + nl + nl + b"ok"
            cases.append(("grammar-fields", "GET", text))
    # RFC 9112 §4 status line, §2.3 version.
    for line in [b"HTTP/1.1 200 OK", b"HTTP/1.1 200", b"HTTP/1.1 200 ", b"HTTP/1.1 200  OK", b"HTTP/1.0 200 OK",
                 b"HTTP/1.2 200 OK", b"HTTP/2.0 200 OK", b"HTTP/0.9 200 OK", b"HTTP/1.10 200 OK", b"http/1.1 200 OK",
                 b"HTTP/1 200 OK", b"HTTP/1.1 20 OK", b"HTTP/1.1 2000 OK", b"HTTP/1.1 099 X", b"HTTP/1.1 600 X",
                 b"HTTP/1.1 999 X", b"HTTP/1.1 000 X", b"HTTP/1.1 +20 X", b"HTTP/1.1  200 OK", b"HTTP/1.1\t200 OK",
                 b"HTTP/1.1 200\tOK", b"HTTP/1.1 200 O\x01K", b"HTTP/1.1 200 OK\x7f", b"HTTP/1.1 200 \xc3\xa9",
                 b"HTTP/1.1 200 a\tb", b" HTTP/1.1 200 OK", b"HTTP/1.1 200 OK\r", b"HTTP/1.1 200OK", b"HTTP/1.x 200 OK",
                 b"HTTP/1.1 101 Switching", b"HTTP/1.1 100 Continue", b"HTTP/1.1 199 X", b"", b"\r\nHTTP/1.1 200 OK"]:
        for tail in [b"\r\nContent-Length: 2\r\n\r\nok", b"\r\n\r\nok", b"\nContent-Length: 0\n\n"]:
            cases.append(("grammar-status-line", "GET", line + tail))
    # §6.3 item 1: 1xx, 204, 304 and HEAD have no content; §9.3 persistence.
    for head in [b"HTTP/1.1 100 Continue\r\n\r\n", b"HTTP/1.1 103 Early\r\nLink: <a>\r\n\r\n",
                 b"HTTP/1.1 102 P\r\nConnection: close\r\n\r\n", b"HTTP/1.1 100 C\r\nTransfer-Encoding: chunked\r\n\r\n",
                 b"HTTP/1.1 101 S\r\nUpgrade: x\r\n\r\n", b""]:
        for final in [b"HTTP/1.1 204 No Content\r\nContent-Length: 3\r\n\r\nabc", b"HTTP/1.1 304 NM\r\nContent-Length: 3\r\n\r\n",
                      b"HTTP/1.1 204 NC\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc",
                      b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcd", b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nab",
                      b"HTTP/1.1 200 OK\r\n\r\nabc", b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 3\r\n\r\nabc",
                      b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 3\r\n\r\nabc",
                      b"HTTP/1.1 200 OK\r\nConnection: x, CLOSE\r\nContent-Length: 0\r\n\r\n",
                      b"HTTP/1.1 205 Reset\r\nContent-Length: 0\r\n\r\n", b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n"]:
            for method in ["GET", "HEAD"]:
                cases.append(("grammar-bodiless", method, head + final))
    return cases


def main():
    output = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 19)
    cases = grammar()
    # Each grammar case, mutated a few times too.
    base = list(cases)
    while len(cases) < count:
        roll = rng.random()
        if roll < 0.3:
            method, data = valid(rng)
            cases.append(("valid", method, data))
        elif roll < 0.85:
            method, data = valid(rng)
            cases.append(("mutated-valid", method, mutate(rng, data)))
        else:
            name, method, data = rng.choice(base)
            cases.append(("mutated-" + name, method, mutate(rng, data)))
    with open(output, "w") as out:
        for name, method, data in cases:
            result = verdict(method, data)
            if result[0] == "error":
                line = [name, method, b64(data), "error", "-", "-", "-", "-", "-", result[1]]
            else:
                line = [name, method, b64(data)] + [str(part) for part in result] + ["-"]
            out.write("\t".join(part.replace("\t", " ").replace("\n", " ") for part in line) + "\n")


if __name__ == "__main__":
    main()
