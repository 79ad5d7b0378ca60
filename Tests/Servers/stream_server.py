"""A server that streams slowly and at awkward places, for the streaming-response tests (issue 24).

Python 3 standard library only. Usage: stream_server.py PORT. It listens on 127.0.0.1:PORT and
speaks just enough HTTP/1.1: one request per connection, every answer `Connection: close`, raw
sockets with TCP_NODELAY (so that each write leaves as a segment of its own). Every path answers
any method alike; a request body (Content-Length or chunked) is read whole before the answer, and
its length recorded. Every path takes an optional `tag=T` under which what happened is recorded
(see /log). K counts from 1.

  /ok                          200 `ok` (the readiness check)
  /sse?count=N&interval=MS[&framing=chunked|close|length][&split=awkward|none]
      [&crlf=lf|crlf|cr|mixed][&id=1][&retry=MS][&bom=1][&comment=1]
                               text/event-stream, N events (default 10, interval 100 ms):
                               `id: K` (id=1), `event: tick` on odd K, `data: {"n":K,"text":"é…✓"}`
                               and on every 5th event a second line `data: {"n":K,"part":2}`;
                               then the blank line. `retry: MS` is the first line of the body
                               (retry given), a BOM its first bytes (bom=1), a `: keep-alive`
                               comment line opens every event after the first (comment=1).
                               Line ends as crlf says (default lf); mixed rotates LF, CRLF, CR,
                               except that a blank line right after a CR gets CRLF (CR then an LF
                               blank line would read as one CRLF). Each event is its own write
                               (its own HTTP chunk when chunked, the default); `interval` ms
                               between events. split=awkward cuts each event into several writes
                               2 ms apart: between a CR and its LF, inside the multi-byte
                               characters, right after `data` (before the colon), right before
                               the blank line (and inside the BOM). close: no length, the body
                               ends at the close; length: Content-Length (whole body made first).
                               interval=0 (without split): many events per write, about 64 KiB,
                               as fast as the socket takes them (the benchmark's path).
  /sse-big?bytes=B             one event whose single data line is B (default 2,000,000) bytes
                               of `x`, then `data: after`; chunked, in writes of 7,001 bytes
  /jsonl?count=N&interval=MS[&framing=...][&split=awkward]
                               application/x-ndjson, N lines `{"n":K,"name":"item K"}` + LF;
                               same framing and timing; split=awkward cuts after `{"n":`, inside
                               `item` and right before the LF
  /endless?tag=T&interval=MS   an SSE event (`id: K`, `data: {"n":K}`) every interval ms
                               (default 10), chunked, until the client goes away
  /firehose?tag=T&bytes=B      SSE events of exactly 100 bytes, B bytes in all (default 64 MiB,
                               rounded down to whole events), chunked, as fast as the socket
                               takes them; bytesSent is updated after each write (16,000 bytes)
  /status?code=C               status C (200-599), text/plain `error body C` (no body for 204
                               and 304)
  /reconnect?tag=T&per=K&total=M[&retry=MS][&interval=MS]
                               SSE with ids: starts after the request's Last-Event-ID (absent or
                               not a number: 0), sends K events (`id: n`, `data: n`), no length,
                               then closes; a request after event M was sent gets 204. `retry:
                               MS` first when given. Records each Last-Event-ID (or null).
  /log?tag=T[&wait=closed]     JSON {"requests": n, "lastEventIDs": [...], "bytesSent": n,
                               "closed": bool, "streams": n, "seconds": s, "methods": [...],
                               "requestBodies": [...]}: requests made under the tag (not /log,
                               /stalled), their methods and request body lengths (0 for none),
                               body bytes sent (framing excluded)
                               by its streams, whether a stream ran and none is running now, and
                               how long the last one lasted. wait=closed first waits (up to 30 s)
                               until that is so: the server saw the client leave (a failed write,
                               or end of file while it waits between events) or it finished, and
                               the socket is closed.
  /stalled?tag=T               waits (up to 30 s) until the tag's running stream made no progress
                               for 0.5 s (a write blocked: the client stopped reading), then
                               {"bytesSent": n, "stalled": true}; false when the stream ended or
                               the time ran out.

Anything else: 404. A query item that is not a number where one is needed: 400.
"""

import json
import os
import select
import socket
import socketserver
import sys
import threading
import time
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

# The fault server's threaded TCP server (a deep backlog, daemon threads): the same file directory.
from fault_server import Server

LOCK = threading.Lock()
CHANGED = threading.Condition(LOCK)
TAGS = {}  # tag -> Record

CACHE = {}  # interval=0 bodies, already cut into writes: key -> [bytes]
CACHE_LIMIT = 8


class Record:
    """What happened under one tag; guarded by LOCK."""

    def __init__(self):
        self.requests = 0
        self.last_event_ids = []
        self.bytes_sent = 0
        self.active = 0  # streams running now
        self.streams = 0  # streams started
        self.started = 0.0
        self.seconds = 0.0  # how long the last stream that ended lasted
        self.progress = time.monotonic()  # when a write last completed
        self.methods = []  # each request's method
        self.request_bodies = []  # each request's body length

    def summary(self):
        return {
            "requests": self.requests,
            "lastEventIDs": list(self.last_event_ids),
            "bytesSent": self.bytes_sent,
            "closed": self.streams > 0 and self.active == 0,
            "streams": self.streams,
            "seconds": round(self.seconds, 3),
            "methods": list(self.methods),
            "requestBodies": list(self.request_bodies),
        }


def record(tag):
    """The tag's record (a throwaway one without a tag); call with LOCK held."""
    if tag is None:
        return Record()
    return TAGS.setdefault(tag, Record())


class ClientGone(Exception):
    """The client closed the connection (seen as end of file while the server waited)."""


class BadQuery(Exception):
    pass


def number(query, name, default):
    text = query.get(name)
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        raise BadQuery(f"{name} must be a number") from None


class LineEnds:
    """The line ends of one stream, as its `crlf` option says."""

    ROTATION = (b"\n", b"\r\n", b"\r")

    def __init__(self, style):
        if style not in ("lf", "crlf", "cr", "mixed"):
            raise BadQuery("crlf must be lf, crlf, cr or mixed")
        self.style = style
        self.count = 0
        self.previous = b""

    def next(self, blank):
        if self.style == "lf":
            end = b"\n"
        elif self.style == "crlf":
            end = b"\r\n"
        elif self.style == "cr":
            end = b"\r"
        else:
            end = self.ROTATION[self.count % 3]
            self.count += 1
            if blank and self.previous == b"\r" and end == b"\n":
                # CR, then an empty line ended by LF, is one CRLF to every reader.
                end = b"\r\n"
        self.previous = end
        return end


def cut_points(block, needles):
    """Offsets inside `block` where it is cut: after each (needle, offset) found, de-duplicated."""
    cuts = set()
    for needle, offset in needles:
        at = block.find(needle)
        if at >= 0:
            cuts.add(at + offset)
    return sorted(cut for cut in cuts if 0 < cut < len(block))


def split_at(block, cuts):
    pieces, start = [], 0
    for cut in cuts + [len(block)]:
        pieces.append(block[start:cut])
        start = cut
    return pieces


def sse_events(query):
    """/sse's body as a list of events, each a list of writes (one unless split=awkward)."""
    count = number(query, "count", 10)
    ends = LineEnds(query.get("crlf", "lf"))
    awkward = split_mode(query)
    events = []
    for k in range(1, count + 1):
        lines = []
        prefix = b""
        if k == 1 and query.get("bom") == "1":
            prefix = b"\xef\xbb\xbf"
        if k == 1 and "retry" in query:
            lines.append(b"retry: %d" % number(query, "retry", 0))
        if k > 1 and query.get("comment") == "1":
            lines.append(b": keep-alive")
        if query.get("id") == "1":
            lines.append(b"id: %d" % k)
        if k % 2 == 1:
            lines.append(b"event: tick")
        lines.append(('data: {"n":%d,"text":"é…✓"}' % k).encode("utf-8"))
        if k % 5 == 0:
            lines.append(b'data: {"n":%d,"part":2}' % k)
        block = prefix + b"".join(line + ends.next(blank=False) for line in lines)
        blank = ends.next(blank=True)
        block += blank
        if not awkward:
            events.append([block])
            continue
        needles = [
            (b"\r\n", 1),  # between a CR and its LF
            ("é".encode(), 1),  # C3 | A9
            ("…".encode(), 2),  # E2 80 | A6
            ("✓".encode(), 1),  # E2 | 9C 93
            (b"data", 4),  # right after the field name
        ]
        cuts = cut_points(block, needles)
        cuts.append(len(block) - len(blank))  # right before the blank line
        if prefix:
            cuts.append(1)  # inside the BOM
        events.append(split_at(block, sorted(set(cuts))))
    return events


def jsonl_lines(query):
    """/jsonl's body as a list of lines, each a list of writes."""
    count = number(query, "count", 10)
    awkward = split_mode(query)
    lines = []
    for k in range(1, count + 1):
        line = b'{"n":%d,"name":"item %d"}\n' % (k, k)
        if awkward:
            lines.append(split_at(line, sorted({line.find(b":") + 1, line.find(b"item") + 2, len(line) - 1})))
        else:
            lines.append([line])
    return lines


def split_mode(query):
    split = query.get("split", "none")
    if split not in ("none", "awkward"):
        raise BadQuery("split must be awkward or none")
    return split == "awkward"


def batched(units, size=64 * 1024):
    """Whole units (each a list of writes) joined into writes of about `size` bytes, each a unit
    of its own (no pause between them)."""
    writes, pending, length = [], [], 0
    for unit in units:
        for piece in unit:
            pending.append(piece)
            length += len(piece)
        if length >= size:
            writes.append(b"".join(pending))
            pending, length = [], 0
    if pending:
        writes.append(b"".join(pending))
    return [[write] for write in writes]


class Handler(socketserver.BaseRequestHandler):
    def setup(self):
        self.request.settimeout(60)
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.record = None
        self.framing = "chunked"

    def handle(self):
        request = self.read_request()
        if request is None:
            return
        method, target, headers, body_length = request
        url = urlsplit(target)
        query = {key: values[0] for key, values in parse_qs(url.query).items()}
        tag = query.get("tag")
        with LOCK:
            self.record = record(tag)
            if url.path not in ("/log", "/stalled"):
                self.record.requests += 1
                self.record.methods.append(method)
                self.record.request_bodies.append(body_length)
        try:
            self.route(url.path, query, headers, tag)
        except BadQuery as error:
            self.respond(400, f"{error}\n")
        except (ClientGone, OSError):
            pass

    def read_request(self):
        """The request's method, target, header fields (names in lower case) and body length, or
        None. The body (Content-Length or chunked) is read whole and dropped, so that the close
        after the answer finds no unread input (which would reset the connection) and a client
        that sends its body before it reads sees its answer."""
        head = b""
        while b"\r\n\r\n" not in head:
            data = self.request.recv(65536)
            if not data or len(head) > 1 << 20:
                return None
            head += data
        head, _, rest = head.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, target = (lines[0].split(" ") + ["", ""])[:2]
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if "chunked" in headers.get("transfer-encoding", "").lower():
            body_length = self.read_chunked(rest)
        else:
            length = headers.get("content-length", "0")
            body_length = self.read_exactly(rest, int(length) if length.isdigit() else 0)
        if body_length is None:
            return None
        return method, target, headers, body_length

    def read_more(self, data):
        more = self.request.recv(65536)
        if not more:
            raise ClientGone()
        return data + more

    def read_exactly(self, data, length):
        """Reads the rest of a body of `length` bytes whose first bytes are `data`; its length."""
        try:
            while len(data) < length:
                data = self.read_more(data)
        except ClientGone:
            return None
        return length

    def read_chunked(self, data):
        """Reads the rest of a chunked body (RFC 9112 §7.1) whose first bytes are `data`; its
        length."""
        total = 0
        try:
            while True:
                while b"\r\n" not in data:
                    data = self.read_more(data)
                size_line, _, data = data.partition(b"\r\n")
                size = int(size_line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    # Trailer fields, if any, then the empty line.
                    while not (data.startswith(b"\r\n") or b"\r\n\r\n" in data):
                        data = self.read_more(data)
                    return total
                while len(data) < size + 2:
                    data = self.read_more(data)
                total += size
                data = data[size + 2 :]
        except (ClientGone, ValueError):
            return None

    # Writing

    def send(self, data):
        self.request.sendall(data if isinstance(data, bytes) else data.encode("latin-1"))

    def respond(self, status, body, content_type="text/plain"):
        body = body.encode("utf-8") if isinstance(body, str) else body
        try:
            reason = HTTPStatus(status).phrase
        except ValueError:
            reason = "Status"
        self.send(
            f"HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n".encode()
            + body
        )

    def begin(self, content_type, framing="chunked", length=None):
        """Sends the head of a streamed answer and counts a running stream under the tag."""
        if framing not in ("chunked", "close", "length"):
            raise BadQuery("framing must be chunked, close or length")
        self.framing = framing
        fields = {"chunked": "Transfer-Encoding: chunked\r\n", "close": "", "length": f"Content-Length: {length}\r\n"}
        with CHANGED:
            self.record.active += 1
            self.record.streams += 1
            self.record.started = self.record.progress = time.monotonic()
            CHANGED.notify_all()
        self.send(
            f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n{fields[framing]}"
            "Cache-Control: no-cache\r\nConnection: close\r\n\r\n"
        )

    def write(self, piece):
        """One write of the body: one chunk when chunked."""
        if self.framing == "chunked":
            self.send(b"%x\r\n%s\r\n" % (len(piece), piece))
        else:
            self.send(piece)
        with CHANGED:
            self.record.bytes_sent += len(piece)
            self.record.progress = time.monotonic()
            CHANGED.notify_all()

    def finish_body(self):
        if self.framing == "chunked":
            self.send(b"0\r\n\r\n")

    def end(self):
        """Closes the connection, then records that the stream ended (whatever ended it)."""
        try:
            self.request.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        self.request.close()
        with CHANGED:
            self.record.active -= 1
            self.record.seconds = time.monotonic() - self.record.started
            CHANGED.notify_all()

    def pause(self, seconds):
        """Waits `seconds`, watching the socket: end of file (the client left) raises ClientGone."""
        deadline = time.monotonic() + seconds
        # poll, not select: select fails on descriptors past 1023 (many connections at once).
        watcher = select.poll()
        watcher.register(self.request, select.POLLIN)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            if not watcher.poll(remaining * 1000):
                continue
            try:
                data = self.request.recv(65536, socket.MSG_DONTWAIT)
            except BlockingIOError:
                continue
            if not data:
                raise ClientGone()
            # Anything the client sends after its request is ignored.

    def stream(self, content_type, units, framing, interval_ms):
        """Sends units (each a list of writes, 2 ms apart) with `interval_ms` between units."""
        length = sum(len(piece) for unit in units for piece in unit) if framing == "length" else None
        self.begin(content_type, framing, length)
        try:
            for index, unit in enumerate(units):
                if index > 0 and interval_ms > 0:
                    self.pause(interval_ms / 1000)
                for number_in_unit, piece in enumerate(unit):
                    if number_in_unit > 0:
                        time.sleep(0.002)
                    self.write(piece)
            self.finish_body()
        finally:
            self.end()

    # Routes

    def route(self, path, query, headers, tag):
        if path == "/ok":
            self.respond(200, "ok")
        elif path in ("/sse", "/jsonl"):
            interval = number(query, "interval", 100)
            make, content_type = {
                "/sse": (sse_events, "text/event-stream; charset=utf-8"),
                "/jsonl": (jsonl_lines, "application/x-ndjson"),
            }[path]
            if interval == 0 and not split_mode(query):
                key = (path, tuple(sorted((k, v) for k, v in query.items() if k != "tag")))
                with LOCK:
                    units = CACHE.get(key)
                if units is None:
                    units = batched(make(query))
                    with LOCK:
                        if len(CACHE) >= CACHE_LIMIT:
                            CACHE.clear()
                        CACHE[key] = units
            else:
                units = make(query)
            self.stream(content_type, units, query.get("framing", "chunked"), interval)
        elif path == "/sse-big":
            size = number(query, "bytes", 2_000_000)
            body = b"data: " + b"x" * size + b"\n\ndata: after\n\n"
            writes = [body[start : start + 7001] for start in range(0, len(body), 7001)]
            self.stream("text/event-stream", [[write] for write in writes], "chunked", 0)
        elif path == "/endless":
            interval = number(query, "interval", 10)
            self.begin("text/event-stream")
            try:
                k = 0
                while True:
                    k += 1
                    self.write(b'id: %d\ndata: {"n":%d}\n\n' % (k, k))
                    self.pause(interval / 1000)
            finally:
                self.end()
        elif path == "/firehose":
            total = number(query, "bytes", 64 << 20)
            self.begin("text/event-stream")
            try:
                k, sent = 0, 0
                while sent + 100 <= total:
                    events = []
                    while len(events) < 160 and sent + 100 <= total:
                        k += 1
                        head = b'data: {"n":%d,"pad":"' % k
                        events.append(head + b"x" * (100 - len(head) - 4) + b'"}\n\n')
                        sent += 100
                    self.write(b"".join(events))
                self.finish_body()
            finally:
                self.end()
        elif path == "/status":
            code = number(query, "code", 500)
            if not 200 <= code <= 599:
                raise BadQuery("code must be 200-599")
            if code in (204, 304):
                # No body, no Content-Length (RFC 9110 §15.3.5, §15.4.5).
                self.send(f"HTTP/1.1 {code} {HTTPStatus(code).phrase}\r\nConnection: close\r\n\r\n")
            else:
                self.respond(code, f"error body {code}")
        elif path == "/reconnect":
            self.reconnect(query, headers)
        elif path == "/log":
            with CHANGED:
                if query.get("wait") == "closed":
                    CHANGED.wait_for(lambda: self.record.streams > 0 and self.record.active == 0, timeout=30)
                body = json.dumps(self.record.summary())
            self.respond(200, body, "application/json")
        elif path == "/stalled":
            self.respond(200, json.dumps(self.stalled()), "application/json")
        else:
            self.respond(404, "no such stream\n")

    def reconnect(self, query, headers):
        per = number(query, "per", 3)
        total = number(query, "total", 10)
        interval = number(query, "interval", 0)
        last = headers.get("last-event-id")
        with LOCK:
            self.record.last_event_ids.append(last)
        start = int(last) + 1 if last is not None and last.isdigit() and len(last) < 10 else 1
        if start > total:
            self.send("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
            return
        units = []
        for n in range(start, min(start + per, total + 1)):
            event = b"id: %d\ndata: %d\n\n" % (n, n)
            if n == start and "retry" in query:
                event = b"retry: %d\n" % number(query, "retry", 0) + event
            units.append([event])
        self.stream("text/event-stream", units, "close", interval)

    def stalled(self):
        deadline = time.monotonic() + 30
        with CHANGED:
            while True:
                now = time.monotonic()
                running = self.record.active > 0
                if running and now - self.record.progress >= 0.5:
                    return {"bytesSent": self.record.bytes_sent, "stalled": True}
                if (self.record.streams > 0 and not running) or now >= deadline:
                    return {"bytesSent": self.record.bytes_sent, "stalled": False}
                CHANGED.wait(timeout=0.05)


def main():
    port = int(sys.argv[1])
    with Server((os.environ.get("STREAM_SERVER_BIND", "127.0.0.1"), port), Handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
