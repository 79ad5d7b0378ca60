"""Checks Tests/Servers/stream_server.py with a raw socket client: every path, every option.

Python 3 standard library only. Run it by hand after a change to the server:

    python3 Tests/Servers/stream_server_check.py            # starts a server on a free port
    python3 Tests/Servers/stream_server_check.py URL        # checks a running one (http://127.0.0.1:PORT/)

It reads each answer to the end of the connection, keeps the HTTP chunks as they came (their
boundaries are the server's writes), reads the SSE bodies with a small reader of its own (the
WHATWG HTML event-stream interpretation) and compares the events with what the query asked for.
It prints one line per check and exits 1 when one failed.
"""

import json
import os
import re
import socket
import subprocess
import sys
import time
from urllib.parse import urlsplit

FAILURES = []
ADDRESS = ("127.0.0.1", 0)


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        FAILURES.append(what)
    return condition


class Response:
    def __init__(self, status, headers, body, chunks):
        self.status = status
        self.headers = headers
        self.body = body
        self.chunks = chunks  # the chunk payloads when chunked, else None


def connect(receive_buffer=None):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(60)
    sock.connect(ADDRESS)
    return sock


def request(sock, target, headers=()):
    lines = [f"GET {target} HTTP/1.1", f"Host: {ADDRESS[0]}:{ADDRESS[1]}"] + [f"{n}: {v}" for n, v in headers]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))


def read_head(sock):
    """Reads the response head byte by byte (so nothing of the body is taken)."""
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        byte = sock.recv(1)
        if not byte:
            raise EOFError("the connection closed inside the head")
        head += byte
    lines = head.decode("latin-1").split("\r\n")[:-2]
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers


def dechunk(data):
    """The chunk payloads of a whole chunked body (which must end with the last chunk, exactly)."""
    chunks, at = [], 0
    while True:
        end = data.index(b"\r\n", at)
        size = int(data[at:end], 16)
        at = end + 2
        if size == 0:
            if data[at:] != b"\r\n":
                raise ValueError("bytes after the last chunk")
            return chunks
        chunks.append(data[at : at + size])
        if data[at + size : at + size + 2] != b"\r\n":
            raise ValueError("a chunk without its CRLF")
        at += size + 2


def fetch(target, headers=()):
    """Sends one request and reads the answer to the end of the connection."""
    with connect() as sock:
        request(sock, target, headers)
        status, fields = read_head(sock)
        rest = b""
        while True:
            data = sock.recv(1 << 20)
            if not data:
                break
            rest += data
    chunks = None
    if fields.get("transfer-encoding") == "chunked":
        chunks = dechunk(rest)
        body = b"".join(chunks)
    else:
        body = rest
    return Response(status, fields, body, chunks)


def log(tag, wait=False):
    response = fetch(f"/log?tag={tag}" + ("&wait=closed" if wait else ""))
    return json.loads(response.body)


# A reader of event streams, after WHATWG HTML "Interpreting an event stream".


def read_events(body):
    """(events as (type, data, lastEventId), the last retry value or None) of a whole body."""
    text = body.decode("utf-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = re.split(r"\r\n|\n|\r", text)
    # The text after the last line end is an unfinished line: ignored.
    lines = lines[:-1]
    events, data, kind, last_id, retry = [], [], "", "", None
    for line in lines:
        if line == "":
            if data:
                events.append((kind or "message", "\n".join(data), last_id))
            data, kind = [], ""
            continue
        if line.startswith(":"):
            continue
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            data.append(value)
        elif name == "event":
            kind = value
        elif name == "id" and "\0" not in value:
            last_id = value
        elif name == "retry" and value.isdigit():
            retry = int(value)
    return events, retry


def expected_events(count, with_id):
    events = []
    for k in range(1, count + 1):
        data = '{"n":%d,"text":"é…✓"}' % k
        if k % 5 == 0:
            data += '\n{"n":%d,"part":2}' % k
        events.append(("tick" if k % 2 == 1 else "message", data, str(k) if with_id else ""))
    return events


def line_ends(body):
    """The set of line ends (LF, CRLF, CR) a body uses."""
    found = set()
    for match in re.finditer(rb"\r\n|\n|\r", body):
        found.add(match.group())
    return found


# Checks


def check_sse_matrix():
    count = 7
    for framing in ("chunked", "close", "length"):
        for split in ("none", "awkward"):
            for crlf in ("lf", "crlf", "cr", "mixed"):
                for extras in (False, True):
                    options = "&id=1&retry=250&bom=1&comment=1" if extras else ""
                    target = f"/sse?count={count}&interval=1&framing={framing}&split={split}&crlf={crlf}{options}"
                    check_sse(target, count, framing, split, crlf, extras)


def check_sse(target, count, framing, split, crlf, extras):
    response = fetch(target)
    name = target
    check(response.status == 200, f"{name}: 200")
    check(response.headers.get("content-type", "").startswith("text/event-stream"), f"{name}: text/event-stream")
    framed = {
        "chunked": response.headers.get("transfer-encoding") == "chunked" and "content-length" not in response.headers,
        "close": "transfer-encoding" not in response.headers and "content-length" not in response.headers,
        "length": response.headers.get("content-length") == str(len(response.body)),
    }[framing]
    check(framed, f"{name}: framed as {framing}")
    events, retry = read_events(response.body)
    check(events == expected_events(count, extras), f"{name}: the {count} events read back as written")
    check(retry == (250 if extras else None), f"{name}: retry")
    check(response.body.startswith(b"\xef\xbb\xbf") == extras, f"{name}: BOM")
    check(response.body.count(b": keep-alive") == (count - 1 if extras else 0), f"{name}: comments")
    want = {"lf": {b"\n"}, "crlf": {b"\r\n"}, "cr": {b"\r"}, "mixed": {b"\n", b"\r\n", b"\r"}}[crlf]
    check(line_ends(response.body) == want, f"{name}: line ends {crlf}")
    if framing != "chunked":
        return
    chunks = response.chunks
    if split == "none":
        check(len(chunks) == count, f"{name}: one chunk per event")
        check(all(len(read_events(chunk)[0]) == 1 for chunk in chunks[1:]), f"{name}: each chunk one whole event")
        return
    check(len(chunks) > count * 3, f"{name}: several chunks per event ({len(chunks)})")
    check(sum(chunk.endswith(b"\xc3") for chunk in chunks) == count, f"{name}: a chunk ends inside é in each event")
    check(sum(chunk.endswith(b"\xe2\x80") for chunk in chunks) == count, f"{name}: a chunk ends inside … in each event")
    check(sum(chunk.endswith(b"\xe2") for chunk in chunks) == count, f"{name}: a chunk ends inside ✓ in each event")
    check(sum(chunk.endswith(b"data") for chunk in chunks) == count, f"{name}: a chunk ends right after `data`")
    blank_lines = sum(
        1
        for before, chunk in zip(chunks, chunks[1:])
        # (an LF after a chunk ending in CR finishes that CRLF: not a blank line)
        if chunk in (b"\n", b"\r\n", b"\r") and line_ends(before[-2:])
        and not (before.endswith(b"\r") and chunk.startswith(b"\n"))
    )
    check(blank_lines == count, f"{name}: the blank line is a chunk of its own in each event")
    if crlf in ("crlf", "mixed"):
        between = sum(1 for before, after in zip(chunks, chunks[1:]) if before.endswith(b"\r") and after.startswith(b"\n"))
        check(between >= count, f"{name}: chunks cut between CR and LF ({between})")
    if extras:
        check(chunks[0] == b"\xef", f"{name}: the first chunk ends inside the BOM")


def check_sse_fast():
    response = fetch("/sse?count=100000&interval=0&framing=chunked")
    events, _ = read_events(response.body)
    check(events == expected_events(100000, False), "/sse interval=0: 100,000 events read back")
    sizes = [len(chunk) for chunk in response.chunks]
    check(len(sizes) < 200 and min(sizes[:-1]) >= 64 * 1024, f"/sse interval=0: many events per write ({len(sizes)} chunks)")
    again = fetch("/sse?count=100000&interval=0&framing=chunked&tag=again")
    check(again.body == response.body, "/sse interval=0: the cached body is the same")
    for framing in ("close", "length"):
        other = fetch(f"/sse?count=1000&interval=0&framing={framing}")
        check(read_events(other.body)[0] == expected_events(1000, False), f"/sse interval=0 framing={framing}")


def check_sse_big():
    for size in (2_000_000, 10, 7001):
        query = "" if size == 2_000_000 else f"?bytes={size}"
        response = fetch("/sse-big" + query)
        events, _ = read_events(response.body)
        check(events == [("message", "x" * size, ""), ("message", "after", "")], f"/sse-big{query}: the events")
        sizes = [len(chunk) for chunk in response.chunks]
        check(all(s == 7001 for s in sizes[:-1]) and 0 < sizes[-1] <= 7001, f"/sse-big{query}: 7,001-byte chunks")


def check_jsonl():
    count = 6
    want = b"".join(b'{"n":%d,"name":"item %d"}\n' % (k, k) for k in range(1, count + 1))
    for framing in ("chunked", "close", "length"):
        for split in ("none", "awkward"):
            target = f"/jsonl?count={count}&interval=1&framing={framing}&split={split}"
            response = fetch(target)
            check(response.headers.get("content-type") == "application/x-ndjson", f"{target}: content type")
            check(response.body == want, f"{target}: the lines")
            values = [json.loads(line) for line in response.body.splitlines()]
            check(values == [{"n": k, "name": f"item {k}"} for k in range(1, count + 1)], f"{target}: JSON values")
            if framing == "chunked" and split == "awkward":
                chunks = response.chunks
                check(sum(c.endswith(b'{"n":') for c in chunks) == count, f"{target}: cut after the key")
                check(sum(c.endswith(b"it") for c in chunks) == count, f"{target}: cut inside `item`")
                check(chunks.count(b"\n") == count, f"{target}: the LF a chunk of its own")
            elif framing == "chunked":
                check(len(response.chunks) == count, f"{target}: one chunk per line")
    fast = fetch("/jsonl?count=5000&interval=0")
    check(fast.body.count(b"\n") == 5000 and len(fast.chunks) < 10, "/jsonl interval=0: batched lines")


def check_status():
    for code in (400, 404, 429, 500, 503):
        response = fetch(f"/status?code={code}")
        check(response.status == code, f"/status?code={code}: status")
        check(response.body == f"error body {code}".encode(), f"/status?code={code}: body")
        check(response.headers.get("content-type") == "text/plain", f"/status?code={code}: text/plain")
    for code in (204, 304):
        response = fetch(f"/status?code={code}")
        check(response.status == code and response.body == b"", f"/status?code={code}: no body")
        check("content-length" not in response.headers, f"/status?code={code}: no Content-Length")
    check(fetch("/status?code=abc").status == 400, "/status?code=abc: 400")
    check(fetch("/status?code=99").status == 400, "/status?code=99: 400")
    check(fetch("/nowhere").status == 404, "/nowhere: 404")
    check(fetch("/sse?framing=nope").status == 400, "/sse?framing=nope: 400")
    ok = fetch("/ok")
    check(ok.status == 200 and ok.body == b"ok", "/ok")


def check_reconnect():
    tag = f"reconnect-{os.getpid()}"
    first = fetch(f"/reconnect?tag={tag}&per=3&total=7&retry=50")
    events, retry = read_events(first.body)
    check(first.status == 200 and "content-length" not in first.headers, "/reconnect: 200, read to the close")
    check([e[2] for e in events] == ["1", "2", "3"] and retry == 50, "/reconnect: events 1-3 and retry first")
    check(first.body.startswith(b"retry: 50\n"), "/reconnect: retry is the first line")
    second = fetch(f"/reconnect?tag={tag}&per=3&total=7&retry=50", [("Last-Event-ID", "3")])
    check([e[1] for e in read_events(second.body)[0]] == ["4", "5", "6"], "/reconnect: after 3, events 4-6")
    third = fetch(f"/reconnect?tag={tag}&per=3&total=7", [("Last-Event-ID", "6")])
    check([e[2] for e in read_events(third.body)[0]] == ["7"], "/reconnect: after 6, event 7 only")
    done = fetch(f"/reconnect?tag={tag}&per=3&total=7", [("Last-Event-ID", "7")])
    check(done.status == 204 and done.body == b"", "/reconnect: after 7, 204")
    record = log(tag, wait=True)
    check(record["lastEventIDs"] == [None, "3", "6", "7"], f"/log: the Last-Event-IDs {record['lastEventIDs']}")
    check(record["requests"] == 4 and record["closed"], "/log: 4 requests, closed")


def read_some(sock, at_least):
    data = b""
    while len(data) < at_least:
        more = sock.recv(65536)
        if not more:
            break
        data += more
    return data


def check_disconnects():
    # A client that leaves mid-stream: the server notices while it waits between events.
    tag = f"leave-{os.getpid()}"
    sock = connect()
    request(sock, f"/sse?tag={tag}&count=1000&interval=200")
    read_head(sock)
    read_some(sock, 10)
    check(not log(tag)["closed"], "/sse mid-stream: not closed while the client reads")
    sock.close()
    record = log(tag, wait=True)
    check(record["closed"] and 0 < record["bytesSent"] < 1000 * 30, f"/log wait=closed after a disconnect: {record}")

    # /endless: written until the client goes away.
    tag = f"endless-{os.getpid()}"
    sock = connect()
    request(sock, f"/endless?tag={tag}&interval=5")
    status, headers = read_head(sock)
    check(status == 200 and headers.get("transfer-encoding") == "chunked", "/endless: 200, chunked")
    data = read_some(sock, 2000)
    events = read_events(dechunk_prefix(data))[0]
    check(len(events) >= 5 and events[0] == ("message", '{"n":1}', "1"), f"/endless: events ({len(events)})")
    sock.close()
    record = log(tag, wait=True)
    check(record["closed"] and record["bytesSent"] > 0 and record["requests"] == 1, f"/endless: closed {record}")
    check(log(tag)["bytesSent"] == record["bytesSent"], "/endless: nothing more sent after it ended")

    # A finished stream counts as closed too.
    tag = f"finished-{os.getpid()}"
    fetch(f"/sse?tag={tag}&count=2&interval=1")
    record = log(tag, wait=True)
    check(record["closed"] and record["streams"] == 1, "/log wait=closed after a finished stream")
    check(not log(f"unknown-{os.getpid()}")["closed"], "/log: an unknown tag is not closed")


def dechunk_prefix(data):
    """The payloads of the whole chunks at the start of `data` (a stream still running)."""
    out, at = b"", 0
    while True:
        end = data.find(b"\r\n", at)
        if end < 0:
            return out
        size = int(data[at:end], 16)
        if len(data) < end + 2 + size + 2:
            return out
        out += data[end + 2 : end + 2 + size]
        at = end + 2 + size + 2


def check_firehose():
    # Read to the end: 100-byte events.
    response = fetch("/firehose?bytes=100050")
    events = read_events(response.body)[0]
    check(len(response.body) == 100000 and len(events) == 1000, "/firehose?bytes=100050: 1,000 events of 100 bytes")
    check(all(len(chunk) <= 16000 for chunk in response.chunks), "/firehose: writes of at most 16,000 bytes")
    check(json.loads(events[-1][1])["n"] == 1000, "/firehose: events numbered")

    # A client that stops reading stalls the writer; closing ends the stream.
    tag = f"firehose-{os.getpid()}"
    sock = connect(receive_buffer=4096)
    request(sock, f"/firehose?tag={tag}")
    read_head(sock)
    stalled = json.loads(fetch(f"/stalled?tag={tag}").body)
    check(stalled["stalled"] and 0 < stalled["bytesSent"] < 64 << 20, f"/stalled: the writer stalled {stalled}")
    later = log(tag)
    check(later["bytesSent"] == stalled["bytesSent"], "/firehose: no progress while the client does not read")
    sock.close()
    record = log(tag, wait=True)
    check(record["closed"], "/firehose: closed once the client left")
    check(not json.loads(fetch(f"/stalled?tag={tag}").body)["stalled"], "/stalled: false for an ended stream")


def main():
    global ADDRESS
    server = None
    if len(sys.argv) > 1:
        url = urlsplit(sys.argv[1])
        ADDRESS = (url.hostname, url.port)
    else:
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        ADDRESS = ("127.0.0.1", probe.getsockname()[1])
        probe.close()
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stream_server.py")
        server = subprocess.Popen([sys.executable, script, str(ADDRESS[1])])
        for _ in range(100):
            try:
                socket.create_connection(ADDRESS, timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
    try:
        check_status()
        check_sse_matrix()
        check_sse_fast()
        check_sse_big()
        check_jsonl()
        check_reconnect()
        check_disconnects()
        check_firehose()
    finally:
        if server is not None:
            server.terminate()
            server.wait()
    print(f"{len(FAILURES)} failed" if FAILURES else "all passed")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
