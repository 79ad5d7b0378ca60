"""A server that misbehaves at random, for the chaos soak (Tests/Chaos, ChaosSoakTests and
`webservice-bench --only chaos`).

Python 3 standard library only. Usage: chaos_server.py PORT [SEED]. It listens on 127.0.0.1:PORT
and speaks HTTP/1.1 on raw sockets, a thread per connection.

  GET|HEAD|POST /chaos?nonce=N&kind=K
      K is get, head, post, post-idem or sse. The server reads the request (a POST's body is
      JSON, {"nonce": N, "pad": "..."}, checked against N), then picks a behaviour at random
      (random.Random seeded with SEED, N and how often N came before, so a run is repeatable)
      and answers with it. A normal answer is 200, `X-Nonce: N`, `X-Conn: C` (the connection's
      number) and, but to a HEAD, the JSON body {"nonce": N, "conn": C, "pad": "..."}.
      Behaviours (BEHAVIOURS below): Content-Length, chunked, gzip, trailers, a delay, then
      `Connection: close`, a body read until the close, 100 and 103 before the answer, a complete
      extra response sent with the real one (in the same write: a client that reads the real one
      sees it) or 0.5-5 ms later (`extra-late`: while the connection is idle, or racing the next
      request), closing the kept-alive connection after a short idle time, a 16-56 KB header
      block, a close or reset before the head or mid-body, a 503 (Retry-After: 0), a stall until the
      client gives up. An `sse` request gets 1-8 events, `id: k` and `data: N k`, framed by chunked,
      Content-Length or the close, and in 4 of 10 streams cut (close or reset) at a random byte.
      A query `break=M` breaks the soak on purpose, for the tests that show its checks can fail:
      `early-extra` writes an extra response before the answer (written down as one a client
      could have seen), `forget` answers plainly and writes nothing down, `miscount` writes down one SSE event more
      than it sent.
  GET /_log?run=R
      the records of the requests whose nonce starts with `R-`, one JSON object per line, taken
      out of the server's memory (a run is read once):
      {"nonce", "method", "conn", "seq" (the request's number on its connection), "behaviour",
      "body" (complete, incomplete or absent), "bodyOK" (the POST body's nonce was N),
      "answered" (the whole answer was written), "events" (an SSE stream's complete events),
      "cut" (the stream was cut), "framing"}; an extra response has {"extra": E, "nonce": N/extra,
      "conn", "race"}: E is the nonce it carries, N the request's it followed, and race its race
      with the connection's next request: "waiting" (the request had come before it: no client
      can tell it from the answer), "near" (the request came within RACE_GRACE_SECONDS after it)
      "closed" (the client closed the connection instead: it saw the extra response) or "clear"
      (nothing came: a client that looks at the connection before writing sees it). After
      "waiting" or "near" the connection ends, so that one wrong answer does not shift the next
      ones.
  GET /_stats
      {"connections": open connections, "threads": the server's threads}

Control requests are answered plainly and close their connection.
"""

import gzip
import itertools
import json
import random
import select
import socket
import socketserver
import struct
import sys
import threading
import time
from urllib.parse import parse_qs, urlsplit

SEED = "0"
RECORDS = []
RECORDS_LOCK = threading.Lock()
SEEN = {}
CONNECTION_NUMBERS = itertools.count(1)
OPEN = [0]

# The longest a stall holds its answer back: it ends when the client gives up and closes.
STALL_LIMIT_SECONDS = 60
# After an extra response sent late, how long a request that then arrives still counts as racing
# it: the client may have looked at the connection just before the extra came and written its
# request just after (preempted in between on a busy machine). Generous on purpose, so that the
# extras counted as visible to a client are ones it could have seen.
RACE_GRACE_SECONDS = 0.05
# The longest a kept-alive connection waits for its next request.
IDLE_LIMIT_SECONDS = 60

# (behaviour, weight) for GET, HEAD, POST: normal answers are the most common.
BEHAVIOURS = [
    ("length", 22),
    ("chunked", 10),
    ("gzip", 8),
    ("trailers", 6),
    ("delay", 6),
    ("close", 5),
    ("until-close", 4),
    ("interim", 5),
    ("extra", 5),
    ("extra-late", 4),
    ("idle-close", 6),
    ("big-head", 4),
    ("reset-before-head", 2),
    ("close-before-head", 2),
    ("reset-mid-body", 2),
    ("close-mid-body", 2),
    ("503", 3),
    ("stall", 0.3),
]
NAMES = [name for name, _ in BEHAVIOURS]
WEIGHTS = [weight for _, weight in BEHAVIOURS]


class Closed(Exception):
    """The client closed the connection (or it broke) before a whole request came."""


class Reader:
    """Buffered reads from a socket."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def fill(self, timeout):
        ready, _, _ = select.select([self.sock], [], [], timeout)
        if not ready:
            return False
        try:
            data = self.sock.recv(65536)
        except OSError:
            raise Closed()
        if not data:
            raise Closed()
        self.buffer += data
        return True

    def until(self, marker, limit=256 * 1024):
        while marker not in self.buffer:
            if len(self.buffer) > limit or not self.fill(IDLE_LIMIT_SECONDS):
                raise Closed()
        index = self.buffer.index(marker) + len(marker)
        data, self.buffer = self.buffer[:index], self.buffer[index:]
        return data

    def exactly(self, count):
        while len(self.buffer) < count:
            if not self.fill(IDLE_LIMIT_SECONDS):
                raise Closed()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def waiting(self, timeout=0):
        """Whether bytes of a next request are here, or come within `timeout` seconds: True; the
        client's close: "closed"; neither: False."""
        if self.buffer:
            return True
        ready, _, _ = select.select([self.sock], [], [], timeout)
        if not ready:
            return False
        try:
            return True if self.sock.recv(1, socket.MSG_PEEK) else "closed"
        except OSError:
            return "closed"


def record(entry):
    if entry.get("forget"):
        return
    with RECORDS_LOCK:
        RECORDS.append(entry)


def head(status, fields):
    reason = {200: "OK", 503: "Service Unavailable", 100: "Continue", 103: "Early Hints"}.get(status, "Status")
    lines = [f"HTTP/1.1 {status} {reason}"] + [f"{name}: {value}" for name, value in fields] + ["", ""]
    return "\r\n".join(lines).encode("latin-1")


def chunked(body, rng, trailer=None):
    out = b""
    position = 0
    while position < len(body):
        size = rng.randint(1, max(1, len(body) // 2))
        piece = body[position : position + size]
        out += f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
        position += size
    out += b"0\r\n" + (trailer or b"") + b"\r\n"
    return out


def reset(sock):
    """Closes with a reset (RST): SO_LINGER on, time 0."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        sock = self.request
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn = next(CONNECTION_NUMBERS)
        reader = Reader(sock)
        with RECORDS_LOCK:
            OPEN[0] += 1
        try:
            seq = 0
            while True:
                seq += 1
                if not self.serve(sock, reader, conn, seq):
                    break
        except (Closed, OSError):
            pass
        finally:
            with RECORDS_LOCK:
                OPEN[0] -= 1
            try:
                sock.close()
            except OSError:
                pass

    def serve(self, sock, reader, conn, seq):
        """Reads and answers one request; whether the connection stays open."""
        raw = reader.until(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        method, target, _ = lines[0].split(" ", 2)
        fields = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                fields[name.strip().lower()] = value.strip()
        url = urlsplit(target)
        query = {key: values[0] for key, values in parse_qs(url.query).items()}
        if url.path == "/_log":
            return self.control(sock, self.log(query.get("run", "")))
        if url.path == "/_stats":
            return self.control(sock, json.dumps({"connections": OPEN[0], "threads": threading.active_count()}))
        nonce = query.get("nonce", "")
        kind = query.get("kind", "get")
        breaking = query.get("break")
        entry = {"nonce": nonce, "method": method, "kind": kind, "conn": conn, "seq": seq}
        # The body: read whole, or the request is recorded as incomplete (a head whose body
        # never came) when the client closes first.
        body = b""
        if fields.get("expect", "").lower() == "100-continue":
            sock.sendall(head(100, []))
        try:
            if "content-length" in fields:
                body = reader.exactly(int(fields["content-length"]))
            elif "chunked" in fields.get("transfer-encoding", "").lower():
                while True:
                    size = int(reader.until(b"\r\n").split(b";")[0], 16)
                    body += reader.exactly(size)
                    reader.until(b"\r\n")
                    if size == 0:
                        break
        except Closed:
            entry["body"] = "incomplete"
            record(entry)
            raise
        entry["body"] = "complete" if body else "absent"
        if method == "POST":
            try:
                entry["bodyOK"] = json.loads(body.decode()).get("nonce") == nonce
            except ValueError:
                entry["bodyOK"] = False
        with RECORDS_LOCK:
            times = SEEN.get(nonce, 0)
            SEEN[nonce] = times + 1
        rng = random.Random(f"{SEED}:{nonce}:{times}")
        if breaking == "forget":
            entry["forget"] = True
        if kind == "sse":
            return self.events(sock, entry, rng, conn, miscount=breaking == "miscount")
        behaviour = {"early-extra": "early-extra", "forget": "length"}.get(breaking) or rng.choices(NAMES, WEIGHTS)[0]
        entry["behaviour"] = behaviour
        entry["answered"] = False
        record(entry)
        return self.answer(sock, reader, entry, rng, method, behaviour, nonce, conn)

    def control(self, sock, text):
        data = text.encode()
        sock.sendall(
            head(200, [("Content-Type", "application/json"), ("Content-Length", len(data)), ("Connection", "close")])
            + data
        )
        return False

    def log(self, run):
        """The records of `run`, taken out of the server's memory (a run's log is read once)."""
        prefix = run + "-"
        with RECORDS_LOCK:
            chosen = [entry for entry in RECORDS if entry.get("nonce", "").startswith(prefix)]
            RECORDS[:] = [entry for entry in RECORDS if not entry.get("nonce", "").startswith(prefix)]
            for nonce in [nonce for nonce in SEEN if nonce.startswith(prefix)]:
                del SEEN[nonce]
        return "\n".join(json.dumps(entry) for entry in chosen)

    def answer(self, sock, reader, entry, rng, method, behaviour, nonce, conn):
        pad = "x" * rng.randint(0, 1500)
        body = json.dumps({"nonce": nonce, "conn": conn, "pad": pad}).encode()
        fields = [("X-Nonce", nonce), ("X-Conn", conn), ("Content-Type", "application/json")]
        head_only = method == "HEAD"

        if behaviour in ("reset-before-head", "close-before-head"):
            if behaviour == "reset-before-head":
                reset(sock)
            else:
                sock.shutdown(socket.SHUT_RDWR)
            return False
        if behaviour == "stall":
            # No answer until the client's timeout closes the connection.
            try:
                reader.fill(STALL_LIMIT_SECONDS)
            except Closed:
                pass
            return False
        if behaviour in ("reset-mid-body", "close-mid-body"):
            if head_only:
                # A HEAD has no body to cut: the cut comes before the head instead.
                reset(sock)
                return False
            sock.sendall(head(200, fields + [("Content-Length", len(body))]) + body[: len(body) // 2])
            if behaviour == "reset-mid-body":
                reset(sock)
            else:
                sock.shutdown(socket.SHUT_RDWR)
            return False
        if behaviour == "503":
            data = b"busy"
            sock.sendall(head(503, fields[:2] + [("Retry-After", "0"), ("Content-Length", len(data))]) + data)
            entry["answered"] = True
            return True
        if behaviour == "delay":
            time.sleep(rng.uniform(0.001, 0.03))
        keep = True
        prefix = b""
        if behaviour == "interim":
            prefix = head(100, []) + head(103, [("Link", "</style.css>; rel=preload")])
        if behaviour == "big-head":
            size = rng.randint(16 * 1024, 56 * 1024)
            filler = "y" * 1000
            fields += [(f"X-Filler-{index}", filler) for index in range(size // 1016)]
        if behaviour == "gzip":
            body = gzip.compress(body)
            fields.append(("Content-Encoding", "gzip"))
        if behaviour in ("chunked", "trailers"):
            trailer = b"X-Trailer: t\r\n" if behaviour == "trailers" else None
            fields.append(("Transfer-Encoding", "chunked"))
            if behaviour == "trailers":
                fields.append(("Trailer", "X-Trailer"))
            data = head(200, fields) + (b"" if head_only else chunked(body, rng, trailer))
        elif behaviour == "until-close":
            fields.append(("Connection", "close"))
            data = head(200, fields) + (b"" if head_only else body)
            keep = False
        else:
            if behaviour == "close":
                fields.append(("Connection", "close"))
                keep = False
            fields.append(("Content-Length", len(body)))
            data = head(200, fields) + (b"" if head_only else body)
        if behaviour == "extra":
            data += self.extra(entry, conn, race="waiting" if reader.waiting() is True else "clear")
        if behaviour == "early-extra":
            # Breaks the soak on purpose: an extra response before the answer, written down as
            # one a client could have seen.
            data = self.extra(entry, conn, race="clear") + data
        sock.sendall(prefix + data)
        entry["answered"] = True
        if not keep:
            sock.shutdown(socket.SHUT_RDWR)
            return False
        if behaviour == "extra-late":
            # A little later: while the connection waits in the client's pool, or as the next
            # request goes out on it.
            time.sleep(rng.uniform(0.0005, 0.005))
            race = None
            if reader.waiting() is True:
                race = "waiting"
            sock.sendall(self.extra(entry, conn, race=None))
            if race != "waiting":
                after = reader.waiting(RACE_GRACE_SECONDS)
                race = {True: "near", "closed": "closed", False: "clear"}[after]
            self.note_extra(entry, conn, race)
            if race == "closed":
                return False
            if race != "clear":
                # The request that came has the extra response for its answer: the connection
                # ends (with a FIN, the request read and dropped), so that this request's own
                # answer never becomes the next one's.
                self.drain_and_close(sock, reader)
                return False
        if behaviour == "idle-close":
            # Closes the connection unless the next request comes within a few milliseconds.
            if reader.waiting() is not True:
                try:
                    more = reader.fill(rng.uniform(0.001, 0.02))
                except Closed:
                    return False
                if not more:
                    sock.shutdown(socket.SHUT_RDWR)
                    return False
        return True

    def extra(self, entry, conn, race):
        """A complete response no request asked for (written down now unless `race` is None)."""
        nonce = "extra-" + entry["nonce"]
        body = json.dumps({"nonce": nonce, "conn": conn, "pad": ""}).encode()
        if race is not None:
            self.note_extra(entry, conn, race)
        fields = [("X-Nonce", nonce), ("X-Conn", conn), ("Content-Type", "application/json")]
        return head(200, fields + [("Content-Length", len(body))]) + body

    def note_extra(self, entry, conn, race):
        record({"extra": "extra-" + entry["nonce"], "nonce": entry["nonce"] + "/extra", "conn": conn, "race": race})

    def drain_and_close(self, sock, reader):
        """Ends the connection with a FIN, reading what the client sends until it closes too."""
        try:
            sock.shutdown(socket.SHUT_WR)
            while reader.fill(1):
                reader.buffer = b""
        except (Closed, OSError):
            pass

    def events(self, sock, entry, rng, conn, miscount=False):
        """An SSE stream of 1-8 events, framed at random, cut at a random byte 4 times in 10."""
        nonce = entry["nonce"]
        count = rng.randint(1, 8)
        events = [f"id: {k}\ndata: {nonce} {k}\n\n".encode() for k in range(1, count + 1)]
        framing = rng.choice(["chunked", "length", "until-close"])
        fields = [("X-Nonce", nonce), ("X-Conn", conn), ("Content-Type", "text/event-stream")]
        wire = b""
        ends = []  # where each event's last byte ends on the wire
        if framing == "chunked":
            fields.append(("Transfer-Encoding", "chunked"))
            for event in events:
                wire += f"{len(event):x}\r\n".encode() + event
                ends.append(len(wire))
                wire += b"\r\n"
            wire += b"0\r\n\r\n"
        else:
            if framing == "length":
                fields.append(("Content-Length", sum(len(event) for event in events)))
            else:
                fields.append(("Connection", "close"))
            for event in events:
                wire += event
                ends.append(len(wire))
        cut = rng.random() < 0.4
        end = rng.randint(0, len(wire) - 1) if cut else len(wire)
        written = sum(1 for e in ends if e <= end)
        # miscount breaks the soak on purpose: one event more written down than was written.
        entry.update(behaviour="sse", framing=framing, cut=cut, events=written + int(miscount), answered=not cut)
        record(entry)
        sock.sendall(head(200, fields))
        position = 0
        for e in ends + [len(wire)]:
            stop = min(e, end)
            if stop > position:
                sock.sendall(wire[position:stop])
                position = stop
                time.sleep(rng.uniform(0, 0.002))
            if position >= end:
                break
        if cut:
            if rng.random() < 0.5:
                reset(sock)
            else:
                sock.shutdown(socket.SHUT_RDWR)
            return False
        if framing == "until-close":
            sock.shutdown(socket.SHUT_RDWR)
            return False
        return True


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 4096


def main():
    global SEED
    port = int(sys.argv[1])
    if len(sys.argv) > 2:
        SEED = sys.argv[2]
    with Server(("127.0.0.1", port), Handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
