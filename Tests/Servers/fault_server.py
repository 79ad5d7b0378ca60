"""A server that misbehaves on purpose, for the fault matrix tests (FaultMatrixTests.swift).

Python 3 standard library only. Usage: fault_server.py PORT. It listens on 127.0.0.1:PORT and
speaks just enough HTTP/1.1 to break it in one way per path:

  /ok                          200, a small JSON body (the readiness check)
  /reset-before-headers        reads the request, then resets the connection (RST, no response)
  /reset-mid-body              Content-Length 100000, sends 10000 bytes, then resets
  /truncated-chunked           chunked, two chunks, then closes without the last (0) chunk
  /short-content-length        Content-Length 100000, sends 10000 bytes, then closes (FIN)
  /drip?interval=S&bytes=N     Content-Length N, then one byte every S seconds
  /status/CODE                 that status, a short text body
  /invalid-json                200, application/json, a body that is not JSON
  /wrong-content-type          200, text/html, an HTML page
  /huge?bytes=N&framing=F      N bytes; F is length (default), chunked or close
  /endless-401                 401 with a Basic and a Digest challenge, whatever the request
  /stale-digest                401 with a Digest challenge; an answer to it gets a new nonce
                               and stale=true, every time
  /redirect-loop?n=N           302 to /redirect-loop?n=N+1, forever
  /redirect-to?url=U           302 to U
  /keep-alive/peer             200, {"port": the client's port, "served": requests served before
                               on this connection}; the connection stays open (the only routes
                               that keep it: every other answer says Connection: close)
  /keep-alive/drop-next        as /keep-alive/peer, then closes the connection without an
                               answer when the next request on it arrives
  /keep-alive/barrier?group=G&n=N
                               as /keep-alive/peer, but answers only once N requests of group G
                               have arrived (each holds its connection meanwhile; after 30 s
                               without them, 504 and the connection closes): concurrent calls
                               that must be in flight at once, whatever the scheduling
  /raw?b64=B&keep=K            sends the base64url bytes B exactly as given (a response of any
                               shape, malformed on purpose); then closes the connection, or with
                               keep=1 keeps it open for the next request (whose answer is
                               /keep-alive/peer's)
  /expect-417                  417 to a request that asks `Expect: 100-continue` (before its body
                               is read); otherwise 200, {"length": body bytes read (a
                               Content-Length or chunked body), "expect": the Expect field}
  /encoded?coding=C&zeros=N&corrupt=1
                               200, a JSON sample (or N zero bytes) compressed by Python's zlib:
                               C is gzip, x-gzip, deflate, deflate-raw (raw DEFLATE sent as
                               deflate), gzip-deflate (both, in that order) or any other name
                               (sent unchanged under it); corrupt=1 flips a middle byte
  /headers                     200, the request's header fields as a JSON object (names in lower
                               case)
  /count?tag=T                 JSON about the requests that carried tag=T (this one excluded):
                               {"count", "authorization": [...], "sent", "finished"}
  /script?tag=T&steps=S        a scripted conversation, for the cache tests: the n-th request
                               carrying tag T gets step n of S (the last step repeats). S is
                               base64url JSON, a list of {"status": 200, "headers": [["ETag",
                               "\"v1\""], ...], "body": "text"} ("body64": base64 instead of
                               "body" for any bytes); header fields are sent as given,
                               in order (two lines of one name stay two lines); a 1xx, 204 or
                               304 step has no body and no Content-Length. A step with
                               "drop": "before-headers" resets the connection without a
                               response; "drop": "mid-body" sends the head (Content-Length
                               twice the body's length plus 2) and the body, then resets;
                               "delay": S holds the answer back S seconds (a timeout before the
                               response head); {"action": "reset"} is "drop": "before-headers". The
                               request's header fields are kept for /script-log.
  /script-log?of=T             the header fields (names in lower case) of each request /script
                               answered for tag T, in order, as a JSON list

Every response to a request with a `tag` query item is counted under it, so a test can check how
many requests reached the server (bounded retries), what Authorization they carried, and for
/huge and /drip how many body bytes the server managed to send before the client stopped reading
("finished" once the server is done with the request). Bodies that are cut short carry
Cache-Control: max-age=3600, so a cache that kept them would have had every reason to.
"""

import base64
import gzip
import json
import os
import socket
import socketserver
import struct
import sys
import threading
import time
import zlib
from urllib.parse import parse_qs, urlsplit

LOCK = threading.RLock()

SAMPLE = json.dumps({"greeting": "hello", "items": list(range(200))}).encode()


def encoded(query):
    """/encoded's body, content type and extra fields: SAMPLE (or `zeros` zero bytes) compressed
    by Python's zlib as `coding` says (gzip, x-gzip, deflate (zlib), deflate-raw (raw DEFLATE
    labelled deflate), gzip-deflate (gzip, then deflate), or any other name: the body unchanged
    under that name); corrupt=1 flips a byte in the middle."""
    body = b"\0" * int(query["zeros"]) if "zeros" in query else SAMPLE
    coding = query.get("coding", "gzip")
    if coding in ("gzip", "x-gzip"):
        body = gzip.compress(body, mtime=0)
    elif coding == "deflate":
        body = zlib.compress(body)
    elif coding == "deflate-raw":
        squeezer = zlib.compressobj(wbits=-15)
        body, coding = squeezer.compress(body) + squeezer.flush(), "deflate"
    elif coding == "gzip-deflate":
        body, coding = zlib.compress(gzip.compress(body, mtime=0)), "gzip, deflate"
    if query.get("corrupt") == "1" and body:
        middle = len(body) // 2
        body = body[:middle] + bytes([body[middle] ^ 0x55]) + body[middle + 1 :]
    extra = f"Content-Encoding: {coding}\r\nCache-Control: max-age=3600\r\n"
    return body, "application/json", extra
TAGS = {}  # tag -> {"count": int, "authorization": [str], "sent": int, "finished": int}

CACHEABLE = "Cache-Control: max-age=3600\r\n"

SCRIPT_LOGS = {}  # tag -> [the header fields of each request /script answered]

BARRIERS = {}  # group -> requests arrived at /keep-alive/barrier
BARRIER_CHANGED = threading.Condition(LOCK)


def await_barrier(group, needed, limit=30):
    """Counts a request of `group` and waits until `needed` did arrive; False after `limit` s."""
    with BARRIER_CHANGED:
        BARRIERS[group] = BARRIERS.get(group, 0) + 1
        BARRIER_CHANGED.notify_all()
        return BARRIER_CHANGED.wait_for(lambda: BARRIERS[group] >= needed, timeout=limit)


def record(tag):
    with LOCK:
        return TAGS.setdefault(tag, {"count": 0, "authorization": [], "sent": 0, "finished": 0})


class Handler(socketserver.BaseRequestHandler):
    def setup(self):
        self.request.settimeout(60)

    def handle(self):
        # Only the /keep-alive/ routes keep the connection open for another request.
        self.pending = b""
        self.served = 0
        self.drop_next = False
        while self.handle_one():
            self.served += 1

    def read_request(self):
        """The next request on the connection: (method, target, headers), or None at its end."""
        head = self.pending
        while b"\r\n\r\n" not in head:
            data = self.request.recv(65536)
            if not data:
                return None
            head += data
            if len(head) > 1 << 20:
                return None
        head_bytes, _, rest = head.partition(b"\r\n\r\n")
        lines = head_bytes.decode("latin-1").split("\r\n")
        method, target, _ = (lines[0].split(" ") + ["", "", ""])[:3]
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0") or "0")
        if target.startswith("/expect-417") and headers.get("expect", "").lower() == "100-continue":
            # Refused before the body: the client must not send it on this connection.
            length = 0
        chunked = headers.get("transfer-encoding", "").lower() == "chunked"
        if chunked and not (target.startswith("/expect-417") and headers.get("expect", "").lower() == "100-continue"):
            self.body_length, self.pending = self.read_chunked(rest)
            return method, target, headers
        while len(rest) < length:
            data = self.request.recv(65536)
            if not data:
                break
            rest += data
        self.body_length = min(len(rest), length)
        self.pending = rest[length:]
        return method, target, headers

    def read_chunked(self, data):
        """Reads a chunked body (no extensions, no trailers): (its length, the bytes after it)."""
        total = 0
        while True:
            while b"\r\n" not in data:
                more = self.request.recv(65536)
                if not more:
                    return total, b""
                data += more
            line, _, data = data.partition(b"\r\n")
            size = int(line.split(b";")[0], 16)
            while len(data) < size + 2:
                more = self.request.recv(65536)
                if not more:
                    return total, b""
                data += more
            data = data[size + 2:]
            total += size
            if size == 0:
                return total, data

    def handle_one(self):
        """Serves one request; True when the connection stays open for the next."""
        request = self.read_request()
        if request is None:
            return False
        method, target, headers = request
        url = urlsplit(target)
        query = {key: values[0] for key, values in parse_qs(url.query).items()}
        tag = query.get("tag")
        state = None
        if tag is not None and url.path != "/count":
            state = record(tag)
            with LOCK:
                state["count"] += 1
                if "authorization" in headers:
                    state["authorization"].append(headers["authorization"])
        try:
            if self.drop_next:
                # A kept-alive connection the server closes as the next request arrives.
                self.request.close()
                return False
            return self.route(method, url.path, query, headers, state) is True
        except (BrokenPipeError, ConnectionResetError, socket.timeout, OSError):
            return False
        finally:
            if state is not None:
                with LOCK:
                    state["finished"] += 1

    # Helpers

    def send(self, data):
        self.request.sendall(data if isinstance(data, bytes) else data.encode("latin-1"))

    def respond(self, status, body=b"", content_type="text/plain", extra=""):
        reason = {200: "OK", 302: "Found", 401: "Unauthorized"}.get(status, "Status")
        if isinstance(body, str):
            body = body.encode("utf-8")
        self.send(
            f"HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\n{extra}Connection: close\r\n\r\n"
        )
        self.send(body)

    def reset(self):
        # SO_LINGER with a zero timeout: close() sends RST instead of FIN.
        self.request.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.request.close()

    def stream(self, state, total, chunk_size, write):
        """Sends `total` bytes through `write` in chunks, counting what got out."""
        sent = 0
        block = b"x" * chunk_size
        while sent < total:
            piece = block[: min(chunk_size, total - sent)]
            write(piece)
            sent += len(piece)
            if state is not None:
                with LOCK:
                    state["sent"] = sent

    def scripted(self, query, headers, state):
        """/script: the step of the script that this request's number under its tag selects."""
        data = query.get("steps", "")
        steps = json.loads(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)))
        tag = query.get("tag", "")
        with LOCK:
            SCRIPT_LOGS.setdefault(tag, []).append(headers)
            number = state["count"] if state is not None else 1
        step = steps[min(number, len(steps)) - 1]
        if step.get("delay"):
            # The answer held back this many seconds (a slow server).
            time.sleep(float(step["delay"]))
        drop = step.get("drop")
        if drop == "before-headers" or step.get("action") == "reset":
            # The connection reset before any byte of the response.
            self.reset()
            return
        status = int(step.get("status", 200))
        # "body64" (standard base64) gives a body of any bytes, e.g. one under an unknown coding.
        body = base64.b64decode(step["body64"]) if "body64" in step else step.get("body", "").encode("utf-8")
        head = f"HTTP/1.1 {status} Scripted\r\n"
        for name, value in step.get("headers", []):
            head += f"{name}: {value}\r\n"
        if drop == "mid-body":
            # The head and the body's first half, announced twice as long; then a reset.
            self.send(head + f"Content-Length: {2 * len(body) + 2}\r\nConnection: close\r\n\r\n")
            self.send(body)
            time.sleep(0.05)
            self.reset()
            return
        if status >= 200 and status not in (204, 304):
            head += f"Content-Length: {len(body)}\r\n"
        else:
            body = b""
        self.send(head + "Connection: close\r\n\r\n")
        self.send(body)

    # Routes

    def route(self, method, path, query, headers, state):
        if path == "/ok":
            self.respond(200, '{"ok":true}', "application/json", CACHEABLE)
        elif path == "/count":
            with LOCK:
                body = json.dumps(record(query.get("tag", "")))
            self.respond(200, body, "application/json", "Cache-Control: no-store\r\n")
        elif path == "/reset-before-headers":
            self.reset()
        elif path == "/reset-mid-body":
            self.send(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n"
                + CACHEABLE
                + "\r\n"
            )
            self.send(b"[" + b"1," * 4999 + b"1")
            time.sleep(0.05)
            self.reset()
        elif path == "/truncated-chunked":
            self.send(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                + CACHEABLE
                + "Connection: close\r\n\r\n"
            )
            self.send(b"5\r\n[1,2,\r\n")
            self.send(b"2\r\n3,\r\n")
            time.sleep(0.05)
            self.request.shutdown(socket.SHUT_WR)
        elif path == "/short-content-length":
            self.send(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n"
                + CACHEABLE
                + "Connection: close\r\n\r\n"
            )
            self.send(b"[" + b"1," * 4999 + b"1")
            time.sleep(0.05)
            self.request.shutdown(socket.SHUT_WR)
        elif path == "/drip":
            interval = float(query.get("interval", "0.5"))
            total = int(query.get("bytes", "100"))
            self.send(
                "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                f"Content-Length: {total}\r\n{CACHEABLE}Connection: close\r\n\r\n"
            )

            def drip(piece):
                self.send(piece)
                time.sleep(interval)

            self.stream(state, total, 1, drip)
        elif path.startswith("/status/"):
            code = int(path[len("/status/"):])
            self.respond(code, f"status {code} from the fault server\n")
        elif path == "/invalid-json":
            self.respond(200, '{"ok": tru', "application/json", CACHEABLE)
        elif path == "/wrong-content-type":
            self.respond(200, "<html><body>Service unavailable</body></html>", "text/html", CACHEABLE)
        elif path == "/huge":
            total = int(query.get("bytes", str(64 << 20)))
            framing = query.get("framing", "length")
            if framing == "chunked":
                self.send(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                    f"Transfer-Encoding: chunked\r\n{CACHEABLE}Connection: close\r\n\r\n"
                )
                self.stream(state, total, 64 * 1024, lambda piece: self.send(b"%x\r\n%s\r\n" % (len(piece), piece)))
                self.send(b"0\r\n\r\n")
            elif framing == "close":
                self.send(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                    f"{CACHEABLE}Connection: close\r\n\r\n"
                )
                self.stream(state, total, 64 * 1024, self.send)
                self.request.shutdown(socket.SHUT_WR)
            else:
                self.send(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                    f"Content-Length: {total}\r\n{CACHEABLE}Connection: close\r\n\r\n"
                )
                self.stream(state, total, 64 * 1024, self.send)
        elif path == "/endless-401":
            nonce = os.urandom(16).hex()
            self.respond(
                401,
                "unauthorized\n",
                extra='WWW-Authenticate: Basic realm="fault"\r\n'
                f'WWW-Authenticate: Digest realm="fault", nonce="{nonce}", qop="auth", algorithm=MD5\r\n',
            )
        elif path == "/stale-digest":
            nonce = os.urandom(16).hex()
            stale = ", stale=true" if headers.get("authorization", "").startswith("Digest ") else ""
            self.respond(
                401,
                "unauthorized\n",
                extra=f'WWW-Authenticate: Digest realm="fault", nonce="{nonce}", qop="auth", algorithm=MD5{stale}\r\n',
            )
        elif path == "/redirect-loop":
            step = int(query.get("n", "0")) + 1
            tag = f"&tag={query['tag']}" if "tag" in query else ""
            self.respond(302, "", extra=f"Location: /redirect-loop?n={step}{tag}\r\n")
        elif path == "/redirect-to":
            self.respond(302, "", extra=f"Location: {query.get('url', '/ok')}\r\n")
        elif path == "/expect-417":
            if headers.get("expect", "").lower() == "100-continue":
                self.respond(417, "expectation failed\n")
            else:
                body = {"length": self.body_length, "expect": headers.get("expect", "")}
                self.respond(200, json.dumps(body), "application/json")
        elif path == "/encoded":
            self.respond(200, *encoded(query))
        elif path == "/script":
            self.scripted(query, headers, state)
        elif path == "/script-log":
            with LOCK:
                body = json.dumps(SCRIPT_LOGS.get(query.get("of", ""), []))
            self.respond(200, body, "application/json", "Cache-Control: no-store\r\n")
        elif path == "/headers":
            self.respond(200, json.dumps(headers), "application/json", "Cache-Control: no-store\r\n")
        elif path == "/raw":
            data = query.get("b64", "")
            self.send(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)))
            if query.get("keep") == "1":
                self.raw_then_peer = True
                return True
            self.request.shutdown(socket.SHUT_WR)
        elif path == "/keep-alive/barrier":
            if not await_barrier(query.get("group", ""), int(query.get("n", "1"))):
                self.respond(504, "the barrier's other requests did not arrive\n")
                return False
            body = json.dumps({"port": self.client_address[1], "served": self.served}).encode()
            self.send(
                f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
            )
            self.send(body)
            return True
        elif path in ("/keep-alive/peer", "/keep-alive/drop-next") or getattr(self, "raw_then_peer", False):
            body = json.dumps({"port": self.client_address[1], "served": self.served}).encode()
            # One write: a second small one would wait for the ACK of the first (Nagle), which the
            # client delays by up to 40 ms, on every request of a kept-alive connection.
            self.send(
                f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            self.drop_next = path == "/keep-alive/drop-next"
            return True
        else:
            self.respond(404, "no such fault\n")


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    # Hundreds of connections may arrive at once (EventLoopTransportTests): the default backlog
    # of 5 would drop their SYNs and leave them to retransmit for tens of seconds.
    request_queue_size = 1024


def main():
    port = int(sys.argv[1])
    # FAULT_SERVER_BIND=0.0.0.0 for a measure that calls 127.0.0.2, 127.0.0.3, ... as other origins.
    with Server((os.environ.get("FAULT_SERVER_BIND", "127.0.0.1"), port), Handler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
